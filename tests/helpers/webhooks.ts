import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A webhook endpoint row for tests (the endpoints' API creates them in the app), and a receiver
// on 127.0.0.1 that verifies every signature with the standardwebhooks library.

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

type Run = (text: string) => Promise<unknown>;

export async function insertEndpoint(run: (text: string) => Promise<{ id: number }[]>, url: string, events: string[], options: { secret?: string; enabled?: boolean } = {}) {
  const secret = options.secret ?? newSecret();
  const list = `ARRAY[${events.map((e) => `'${e.replace(/'/g, "''")}'`).join(",")}]::text[]`;
  const [row] = await run(`INSERT INTO webhook_endpoints (url, events, enabled, secret, updated_at)
    VALUES ('${url.replace(/'/g, "''")}', ${list}, ${options.enabled ?? true}, '${secret}', now()) RETURNING id`);
  return { id: row!.id, secret };
}

export type Received = { id: string; type: string; timestamp: string; data: Record<string, unknown>; headers: http.IncomingHttpHeaders };

export type Receiver = {
  url: string;
  received: Received[];
  /** Answers with this status (or does nothing: "hold") from now on. */
  answer: number | "hold";
  /** Signatures that failed verification: must stay empty. */
  invalid: string[];
  /** The webhook-ids of the requests held unanswered ("hold"). */
  held: string[];
  close(): Promise<void>;
};

export async function startReceiver(secret: () => string, port = 0): Promise<Receiver> {
  const receiver: Receiver = { url: "", received: [], answer: 204, invalid: [], held: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (receiver.answer === "hold") {
        receiver.held.push(String(req.headers["webhook-id"]));
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        const payload = new Webhook(secret()).verify(body, req.headers as Record<string, string>) as Omit<Received, "id" | "headers">;
        receiver.received.push({ ...payload, id: String(req.headers["webhook-id"]), headers: req.headers });
      } catch (error) {
        receiver.invalid.push(`${String(error)}: ${body.slice(0, 200)}`);
      }
      res.writeHead(receiver.answer).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000, what = "condition"): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what} not reached in ${timeoutMs} ms: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export type { Run };
