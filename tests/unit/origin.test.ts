import { describe, expect, it } from "vitest";
import { crossSiteWrite } from "@/lib/security/origin";

// The one same-origin rule, asked by proxy.ts for every page POST (server actions, sign-in) and by
// lib/http/api.ts for every session's API write; tests/http/policy.test.ts shows both answering 403.

const request = (method: string, headers: Record<string, string>, url = "http://console.test/subscribers") => new Request(url, { method, headers: { host: "console.test", ...headers } });

describe("crossSiteWrite", () => {
  it("refuses a write whose Origin is another site, or no URL at all", () => {
    for (const origin of ["http://evil.example", "null", "garbage", "http://console.test.evil.example", "http://console.test, http://evil.example", "https://console.test:444"]) {
      for (const method of ["POST", "PATCH", "DELETE", "PUT", "post"]) expect(crossSiteWrite(request(method, { origin })), `${method} ${origin}`).toBe(true);
    }
  });

  it("lets through a write from this host (or the host a trusted proxy names), and one without Origin", () => {
    expect(crossSiteWrite(request("POST", { origin: "http://console.test" }))).toBe(false);
    expect(crossSiteWrite(request("POST", {}))).toBe(false);
    expect(crossSiteWrite(request("POST", { host: "10.0.0.5:3000", "x-forwarded-host": "console.example, 10.0.0.1", origin: "https://console.example" }))).toBe(false);
    expect(crossSiteWrite(request("POST", { host: "10.0.0.5:3000", "x-forwarded-host": "console.example", origin: "https://evil.example" }))).toBe(true);
  });

  it("never refuses a read", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) expect(crossSiteWrite(request(method, { origin: "http://evil.example" })), method).toBe(false);
  });
});
