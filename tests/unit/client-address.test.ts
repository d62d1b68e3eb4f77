import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/server/client-address";
import { config as proxyConfig } from "@/proxy";
import { prepareIncoming, proxiedPaths, SERVER_ACTION_BODY_LIMIT, type Incoming } from "@/lib/server/incoming";

const goesThroughProxy = proxiedPaths(proxyConfig.matcher);

describe("resolveClientAddress", () => {
  it("is the socket's peer without a trusted proxy, whatever the headers say", () => {
    expect(resolveClientAddress("203.0.113.9", "192.0.2.1", 0)).toBe("203.0.113.9");
    expect(resolveClientAddress("203.0.113.9", ["192.0.2.1", "192.0.2.2"], 0)).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:203.0.113.9", undefined, 0)).toBe("203.0.113.9");
    expect(resolveClientAddress("2001:DB8::1", undefined, 0)).toBe("2001:db8::1");
    expect(resolveClientAddress(undefined, "192.0.2.1", 0)).toBe("unknown");
  });

  it("counts trusted hops from the right: the left-most hops are the client's to write", () => {
    // One proxy (10.0.0.2) appended the address it saw; the client wrote the rest.
    expect(resolveClientAddress("10.0.0.2", "192.0.2.1, 198.51.100.7", 1)).toBe("198.51.100.7");
    expect(resolveClientAddress("10.0.0.2", ["192.0.2.1", "198.51.100.7"], 1)).toBe("198.51.100.7");
    // Two proxies: the outer one's view of the client is two hops from the right.
    expect(resolveClientAddress("10.0.0.3", "192.0.2.1, 198.51.100.7, 10.0.0.2", 2)).toBe("198.51.100.7");
    // A chain shorter than the proxies promised: the left-most address we can vouch for.
    expect(resolveClientAddress("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
    expect(resolveClientAddress("10.0.0.3", "198.51.100.7", 3)).toBe("198.51.100.7");
    // A hop that is not an address stops the walk.
    expect(resolveClientAddress("10.0.0.2", "192.0.2.1, not-an-ip", 1)).toBe("10.0.0.2");
    expect(resolveClientAddress("10.0.0.2", "[2001:db8::7]", 1)).toBe("2001:db8::7");
  });
});

function request(init: Partial<Incoming> & { headers?: Incoming["headers"] } = {}): Incoming {
  return { method: "GET", url: "/", socket: { remoteAddress: "203.0.113.9" }, ...init, headers: { ...init.headers } };
}

describe("prepareIncoming", () => {
  it("replaces what the client claims with what the socket knows", () => {
    const req = request({
      headers: {
        "x-forwarded-for": "192.0.2.1",
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "https",
        "x-real-ip": "192.0.2.1",
        forwarded: "for=192.0.2.1",
        [CLIENT_ADDRESS_HEADER]: "192.0.2.1",
      },
    });
    expect(prepareIncoming(req, 0, goesThroughProxy)).toBeNull();
    expect(req.headers[CLIENT_ADDRESS_HEADER]).toBe("203.0.113.9");
    expect(req.headers["x-forwarded-for"]).toBe("203.0.113.9");
    expect(req.headers["x-forwarded-proto"]).toBe("http");
    expect(req.headers["x-forwarded-host"]).toBeUndefined();
    expect(req.headers["x-real-ip"]).toBeUndefined();
    expect(req.headers.forwarded).toBeUndefined();
  });

  it("behind a trusted proxy keeps its headers but still decides the address itself", () => {
    const req = request({ socket: { remoteAddress: "10.0.0.2" }, headers: { "x-forwarded-for": "192.0.2.1, 198.51.100.7", "x-forwarded-proto": "https", [CLIENT_ADDRESS_HEADER]: "192.0.2.1" } });
    expect(prepareIncoming(req, 1, goesThroughProxy)).toBeNull();
    expect(req.headers[CLIENT_ADDRESS_HEADER]).toBe("198.51.100.7");
    expect(req.headers["x-forwarded-proto"]).toBe("https");
  });

  it("refuses TRACE, TRACK and CONNECT with 405", () => {
    for (const method of ["TRACE", "TRACK", "CONNECT", "trace"]) {
      const refused = prepareIncoming(request({ method }), 0, goesThroughProxy);
      expect(refused?.status, method).toBe(405);
      expect(refused?.headers["X-Content-Type-Options"]).toBe("nosniff");
      expect(JSON.parse(refused!.body)).toMatchObject({ error: { code: "method_not_allowed" } });
    }
  });

  it("refuses a page POST (a server action) past Next's limit from its declared length", () => {
    const post = (headers: Incoming["headers"], url = "/subscribers") => prepareIncoming(request({ method: "POST", url, headers }), 0, goesThroughProxy);
    expect(post({ "content-length": String(SERVER_ACTION_BODY_LIMIT) })).toBeNull();
    expect(post({ "content-length": String(SERVER_ACTION_BODY_LIMIT + 1) })?.status).toBe(413);
    expect(post({ "content-length": "12abc" })?.status).toBe(413);
    expect(post({ "transfer-encoding": "chunked" })?.status).toBe(411);
    // The JSON API limits its own bodies (lib/http/body.ts).
    expect(post({ "content-length": String(SERVER_ACTION_BODY_LIMIT + 1) }, "/api/v1/branches")).toBeNull();
  });
});
