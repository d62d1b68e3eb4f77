import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problem, readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { answerText } from "@/lib/webhooks/answer";
import { postWebhook } from "@/lib/webhooks/send";
import { webhookHeaders } from "@/lib/webhooks/sign";
import { addressRefusal, checkTarget, type Resolver } from "@/lib/webhooks/target";
import { retryDelaySeconds, shouldDisable, MAX_ATTEMPTS } from "@/lib/webhooks/deliver";

/** An HTTPS receiver whose certificate signs itself (tests/fixtures/tls, made once with openssl, valid for a century). */
async function selfSignedServer(): Promise<{ port: number; close: () => void }> {
  const read = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/tls", name));
  const server = https.createServer({ key: read("self-signed.key"), cert: read("self-signed.crt") }, (_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
const OLD_SECRET = `whsec_${Buffer.from("fedcba9876543210fedcba9876543210").toString("base64")}`;

describe("the Standard Webhooks signature", () => {
  const body = JSON.stringify({ type: "ping", timestamp: new Date().toISOString(), data: { hello: "wörld" } });
  const timestamp = Math.floor(Date.now() / 1000);

  it("is accepted by the standardwebhooks library", () => {
    const headers = webhookHeaders([SECRET], "msg_abc", timestamp, body);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("carries both signatures during a rotation's overlap, each verifiable on its own", () => {
    const headers = webhookHeaders([SECRET, OLD_SECRET], "msg_abc", timestamp, body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(OLD_SECRET).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("fails verification with another secret or a changed body", () => {
    const headers = webhookHeaders([SECRET], "msg_abc", timestamp, body);
    const other = `whsec_${Buffer.from("x".repeat(32)).toString("base64")}`;
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(() => new Webhook(SECRET).verify(body.replace("wörld", "world"), headers)).toThrow();
  });
});

const resolveTo = (address: string, family = 4): Resolver => (_host, callback) => callback(null, [{ address, family }]);

describe("webhook targets", () => {
  it.each(["127.0.0.1", "10.0.0.1", "172.16.3.4", "192.168.1.1", "100.64.0.1", "169.254.169.254", "169.254.1.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
    "::1", "::", "fc00::1", "fd00:ec2::254", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe"])(
    "refuses %s", (address) => {
      expect(addressRefusal(address, false)).not.toBeNull();
    });

  it.each(["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("accepts the public %s", (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });

  it("refuses the metadata address even when private targets are allowed", () => {
    expect(addressRefusal("127.0.0.1", true)).toBeNull();
    expect(addressRefusal("169.254.169.254", true)).not.toBeNull();
    expect(addressRefusal("fd00:ec2::254", true)).not.toBeNull();
    expect(addressRefusal("::ffff:169.254.169.254", true)).not.toBeNull();
  });

  it.each(["https://127.0.0.1/hook", "https://10.0.0.1/", "https://169.254.169.254/latest/meta-data", "https://[::1]:8443/", "https://[::ffff:127.0.0.1]/"])(
    "checkTarget refuses %s with webhook_target_refused", async (url) => {
      await expect(checkTarget(url, { allowPrivate: false, allowHttp: false })).rejects.toMatchObject({ status: 400, code: "webhook_target_refused" });
    });

  it("checkTarget refuses a name resolving to a private address, and accepts one resolving to a public one", async () => {
    await expect(checkTarget("https://hooks.example.com/in", { allowPrivate: false, resolve: resolveTo("10.1.2.3") })).rejects.toMatchObject({ code: "webhook_target_refused" });
    await expect(checkTarget("https://hooks.example.com/in", { allowPrivate: false, resolve: resolveTo("fe80::1", 6) })).rejects.toMatchObject({ code: "webhook_target_refused" });
    await expect(checkTarget("https://hooks.example.com/in", { allowPrivate: false, resolve: resolveTo("93.184.216.34") })).resolves.toBeUndefined();
  });

  it("checkTarget refuses a name when any of its addresses is refused", async () => {
    const mixed: Resolver = (_h, cb) => cb(null, [{ address: "93.184.216.34", family: 4 }, { address: "127.0.0.1", family: 4 }]);
    await expect(checkTarget("https://hooks.example.com/", { allowPrivate: false, resolve: mixed })).rejects.toMatchObject({ code: "webhook_target_refused" });
  });

  it("wants https unless http is allowed, and no credentials in the URL", async () => {
    const publicName = resolveTo("93.184.216.34");
    await expect(checkTarget("http://hooks.example.com/", { allowHttp: false, resolve: publicName })).rejects.toMatchObject({ code: "webhook_target_refused" });
    await expect(checkTarget("http://hooks.example.com/", { allowHttp: true, resolve: publicName })).resolves.toBeUndefined();
    await expect(checkTarget("ftp://hooks.example.com/", { allowHttp: true })).rejects.toMatchObject({ code: "webhook_target_refused" });
    await expect(checkTarget("https://user:pw@hooks.example.com/", { resolve: publicName })).rejects.toMatchObject({ code: "webhook_target_refused" });
    await expect(checkTarget("not a url")).rejects.toMatchObject({ code: "webhook_target_refused" });
  });
});

describe("one attempt", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
      } else if (req.url === "/silent") {
        // never answers
      } else if (req.url === "/huge") {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, "a");
        let sent = 0;
        const write = () => {
          while (sent < 100 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
          if (sent < 100 * 1024 * 1024) res.once("drain", write);
          else res.end();
        };
        res.on("close", () => (sent = Infinity));
        write();
      } else {
        req.resume();
        req.on("end", () => res.writeHead(204).end());
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  const open = { allowPrivate: true, allowHttp: true };

  it("is delivered on a 2xx", async () => {
    expect(await postWebhook(`${base}/ok`, {}, "{}", open)).toMatchObject({ delivered: true, status: 204 });
  });

  it("does not follow a redirect: a 3xx fails", async () => {
    expect(await postWebhook(`${base}/redirect`, {}, "{}", open)).toMatchObject({ delivered: false, status: 302 });
  });

  it("gives up on a receiver that never answers", async () => {
    const attempt = await postWebhook(`${base}/silent`, {}, "{}", { ...open, timeoutMs: 500 });
    expect(attempt).toMatchObject({ delivered: false, status: null });
    expect(attempt.durationMs).toBeLessThan(2_000);
    // Why there was no answer is kept as a problem key, said in each reader's language.
    expect(attempt.body).toBe(problem("webhooks.attempt.timeout", { seconds: 0.5 }));
  });

  it("fails an attempt to a receiver that never answers within the 10 s bound", async () => {
    const attempt = await postWebhook(`${base}/silent`, {}, "{}", open);
    expect(attempt).toMatchObject({ delivered: false, status: null });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(9_900);
    expect(attempt.durationMs).toBeLessThan(11_000);
    expect(problemsIn("en")(attempt.body)).toBe("No complete answer within 10 s.");
    expect(problemsIn("fr")(attempt.body)).toBe("Aucune réponse complète en 10 s.");
    expect(problemsIn("ar")(attempt.body)).toBe("لم تصل إجابة كاملة خلال 10 ث.");
  });

  it("reads a huge answer only up to its bound", async () => {
    const before = process.memoryUsage().rss;
    const attempt = await postWebhook(`${base}/huge`, {}, "{}", open);
    expect(attempt.status).toBe(200);
    expect(attempt.body.length).toBeLessThanOrEqual(1000);
    expect(attempt.durationMs).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });

  it("refuses a private target at connection time unless allowed, whatever the name resolves to later", async () => {
    expect(await postWebhook(`${base}/ok`, {}, "{}", { allowPrivate: false, allowHttp: true })).toMatchObject({ delivered: false, status: null });
    const port = (server.address() as AddressInfo).port;
    // The name resolves to loopback at connection time: refused before any byte is sent.
    const attempt = await postWebhook(`http://hooks.example.com:${port}/ok`, {}, "{}", { allowPrivate: false, allowHttp: true, resolve: resolveTo("127.0.0.1") });
    expect(attempt).toMatchObject({ delivered: false, status: null });
    expect(attempt.body).toBe(problem("webhooks.refused.resolvesToNotPublic", { host: "hooks.example.com" }));
    expect(problemsIn("en")(attempt.body)).toBe("The webhook's URL is refused: hooks.example.com resolves to an address that is a loopback, private, link-local or reserved address.");
    expect(problemsIn("fr")(attempt.body)).toBe("L’URL du webhook est refusée : hooks.example.com se résout en une adresse de bouclage, privée, lien-local ou réservée.");
    expect(problemsIn("ar")(attempt.body)).toBe("عنوان URL لخطاف الويب مرفوض: \u2068hooks.example.com\u2069 يُحَل إلى عنوان استرجاع أو خاص أو محلي للرابط أو محجوز.");
  });

  it("says a network error in the reader's language, its code kept beside the words", async () => {
    // Nothing listens on the discard port: the connection is refused.
    const attempt = await postWebhook("http://127.0.0.1:9/closed", {}, "{}", open);
    expect(attempt).toMatchObject({ delivered: false, status: null, body: problem("webhooks.attempt.connectionRefused", { code: "ECONNREFUSED" }) });
    expect(problemsIn("en")(attempt.body)).toBe("The receiver refused the connection (ECONNREFUSED).");
    expect(problemsIn("fr")(attempt.body)).toBe("Le destinataire a refusé la connexion (ECONNREFUSED).");
    expect(problemsIn("ar")(attempt.body)).toBe("رفض المستقبِل الاتصال (\u2068ECONNREFUSED\u2069).");
  });

  it("names a connection closed without an answer, and an answer that is not HTTP", async () => {
    const closing = net.createServer((socket) => socket.once("data", () => socket.destroy()));
    const garbling = net.createServer((socket) => socket.once("data", () => socket.end("SMTP ready\r\n\r\n")));
    for (const s of [closing, garbling]) await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    try {
      const closed = await postWebhook(`http://127.0.0.1:${(closing.address() as AddressInfo).port}/`, {}, "{}", open);
      expect(closed).toMatchObject({ delivered: false, status: null, body: problem("webhooks.attempt.connectionClosed", { code: "ECONNRESET" }) });
      expect(problemsIn("fr")(closed.body)).toBe("Le destinataire a fermé la connexion sans répondre (ECONNRESET).");
      const garbled = await postWebhook(`http://127.0.0.1:${(garbling.address() as AddressInfo).port}/`, {}, "{}", open);
      expect(garbled.status).toBeNull();
      expect(readProblem(garbled.body)).toEqual({ key: "webhooks.attempt.notHttp", values: { code: expect.stringMatching(/^HPE_/) } });
      expect(problemsIn("en")(garbled.body)).toMatch(/^The receiver's answer is not HTTP \(HPE_\w+\)\.$/);
    } finally {
      closing.close();
      garbling.close();
    }
  });

  it("names a certificate the console does not trust", async () => {
    const tls = await selfSignedServer();
    try {
      const attempt = await postWebhook(`https://127.0.0.1:${tls.port}/`, {}, "{}", open);
      expect(readProblem(attempt.body)).toEqual({ key: "webhooks.attempt.certificate", values: { code: expect.stringMatching(/SELF_SIGNED|CERT|UNABLE_TO_VERIFY/) } });
      expect(problemsIn("ar")(attempt.body)).toMatch(/^شهادة TLS الخاصة بالمستقبِل غير موثوقة/);
    } finally {
      tls.close();
    }
  });
});

describe("a delivery's Answer column", () => {
  const fr = problemsIn("fr");
  const ar = problemsIn("ar");

  it("says the console's reason for no answer in the reader's language", () => {
    const off = problem("webhooks.attempt.turnedOff");
    expect(answerText(null, off, problemsIn("en"))).toBe("The endpoint is turned off.");
    expect(answerText(null, off, fr)).toBe("Le point de terminaison est désactivé.");
    expect(answerText(null, off, ar)).toBe("نقطة النهاية متوقفة.");
    expect(answerText(null, problem("webhooks.refused.httpsOnly"), fr)).toBe("L’URL du webhook est refusée : elle doit commencer par https:// (http:// seulement avec WEBHOOK_ALLOW_HTTP=1).");
    // An answer still trickling in at the end keeps its status; the text is still the console's.
    expect(answerText(200, problem("webhooks.attempt.timeout", { seconds: 10 }), fr)).toBe("Aucune réponse complète en 10 s.");
  });

  it("shows a receiver's answer as it came, even one that reads like a key", () => {
    expect(answerText(500, '{"error":"database down"}', fr)).toBe('{"error":"database down"}');
    expect(answerText(500, problem("webhooks.attempt.turnedOff"), fr)).toBe("webhooks.attempt.turnedOff");
    expect(answerText(null, "export.jobLost", fr)).toBe("export.jobLost");
  });

  it("leaves a reason stored before, in English, as it is", () => {
    expect(answerText(null, "The endpoint is turned off.", fr)).toBe("The endpoint is turned off.");
    expect(answerText(null, "No complete answer within 10 s.", ar)).toBe("No complete answer within 10 s.");
  });
});

describe("retries", () => {
  it("last about a day over 10 attempts, then stop", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelaySeconds(i + 1, 30, () => 0.5));
    expect(delays.at(-1)).toBeNull();
    const total = delays.slice(0, -1).reduce<number>((sum, d) => sum + d!, 0);
    expect(total / 3600).toBeGreaterThan(20);
    expect(total / 3600).toBeLessThan(30);
  });

  it("turn an endpoint off after failing for the set days", () => {
    const now = new Date("2026-11-29T12:00:00Z");
    expect(shouldDisable(null, now, 3)).toBe(false);
    expect(shouldDisable(new Date("2026-11-27T12:00:00Z"), now, 3)).toBe(false);
    expect(shouldDisable(new Date("2026-11-26T12:00:00Z"), now, 3)).toBe(true);
  });
});
