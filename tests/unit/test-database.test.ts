import net from "node:net";
import { describe, expect, it, vi } from "vitest";
import { answers, LOCAL_POSTGRES_URL, testDatabase } from "../../scripts/test-database.mjs";

// `npm test` (scripts/test.mjs) runs the PostgreSQL suites, the many-machines test among them,
// whenever a server is there: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432 when it
// answers; an empty TEST_DATABASE_URL runs without.

describe("the PostgreSQL server npm test uses", () => {
  it("is TEST_DATABASE_URL when set, without probing; none when it is set empty", async () => {
    const probe = vi.fn(async () => true);
    expect(await testDatabase({ TEST_DATABASE_URL: "postgres://db.example/x" }, probe)).toMatchObject({ url: "postgres://db.example/x" });
    expect(await testDatabase({ TEST_DATABASE_URL: "" }, probe)).toMatchObject({ url: null, note: expect.stringMatching(/empty/) });
    expect(probe).not.toHaveBeenCalled();
  });

  it("is the local server when TEST_DATABASE_URL is unset and something answers on 5432, else none, and says which", async () => {
    const yes = await testDatabase({}, async () => true);
    expect(yes).toEqual({ url: LOCAL_POSTGRES_URL, note: expect.stringMatching(/answers on 127\.0\.0\.1:5432/) });
    expect(LOCAL_POSTGRES_URL).toBe("postgres://postgres@127.0.0.1:5432/postgres");
    const no = await testDatabase({}, async () => false);
    expect(no).toEqual({ url: null, note: expect.stringMatching(/nothing answers on 127\.0\.0\.1:5432.*many-machines test is skipped/) });
  });

  it("probes by a TCP connection: a listening port answers, a closed one does not", async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const { port } = server.address() as net.AddressInfo;
    expect(await answers(port)).toBe(true);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await answers(port)).toBe(false);
  });
});
