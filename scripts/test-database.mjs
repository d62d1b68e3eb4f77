// Which PostgreSQL server `npm test` also runs the integration suites (and the many-machines test)
// on: TEST_DATABASE_URL when it is set (empty: none, the embedded database only); otherwise the
// machine's own server when one answers on 127.0.0.1:5432, as on the project's machines and CI.
import net from "node:net";

export const LOCAL_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Whether something accepts a TCP connection on host:port within timeoutMs. */
export function answers(port, host = "127.0.0.1", timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * The server for this run and a line saying why: `url` is null when the suites run on the
 * embedded database only. `probe` says whether the local server answers (tests give their own).
 */
export async function testDatabase(env = process.env, probe = () => answers(5432)) {
  const given = env.TEST_DATABASE_URL;
  if (given !== undefined && given.trim() !== "") {
    return { url: given, note: "TEST_DATABASE_URL is set: integration tests also run on that PostgreSQL server." };
  }
  if (given !== undefined) {
    return { url: null, note: "TEST_DATABASE_URL is empty: integration tests run on the embedded database only, and the many-machines test is skipped." };
  }
  if (await probe()) {
    return {
      url: LOCAL_POSTGRES_URL,
      note: `PostgreSQL answers on 127.0.0.1:5432: integration tests also run on it, with the many-machines test (TEST_DATABASE_URL=${LOCAL_POSTGRES_URL}; set TEST_DATABASE_URL= to run without it).`,
    };
  }
  return {
    url: null,
    note: "TEST_DATABASE_URL is not set and nothing answers on 127.0.0.1:5432: integration tests run on the embedded database only, and the many-machines test is skipped.",
  };
}
