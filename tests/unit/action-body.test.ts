import { describe, expect, it } from "vitest";
import { actionBodyProblem, MAX_ACTION_ARGUMENTS, replyProblem } from "@/lib/framework-gaps/action-body";

// Bodies of page POSTs that made Next answer 500 (found by tests/http/fuzz.test.ts): React's
// decoder threw on them. Plain arguments, as React's client encodes the console's actions, pass.

const post = (body: string, headers: Record<string, string>) => new Request("http://console.test/subscribers", { method: "POST", body, headers });
const action = (body: string, type = "text/plain;charset=UTF-8") => actionBodyProblem(post(body, { "next-action": "7f00", "content-type": type }));
const BOUNDARY = "----formdata-console-test";
const multipart = (fields: [string, string][]) =>
  fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") + `--${BOUNDARY}--\r\n`;

describe("server action bodies", () => {
  it("let through the arguments React's client sends for the console's actions", async () => {
    for (const args of [
      [{ name: "North" }],
      [{ id: 54, name: "North" }],
      [{ email: "ada", is_duplicate: "true" }],
      [{ first_name: "Ada", branch_id: "$undefined", country_id: null, is_mandatory: false, travel_date: "" }],
      [{ name: "$$5 branch" }],
      [],
      [{ tags: ["a", ["b"]] }],
    ]) {
      expect(await action(JSON.stringify(args)), JSON.stringify(args)).toBeNull();
      expect(await action(multipart([["0", JSON.stringify(args)]]), `multipart/form-data; boundary=${BOUNDARY}`)).toBeNull();
    }
  });

  it("refuse what React's decoder throws on or what no action of the console takes", async () => {
    for (const body of ["garbage", "", "{}", '"x"', "null", "5", '{"a":1}', '["$1"]', '["$Q1"]', '["$F1"]', '["$B1"]', '["$h1"]', '["$Z"]', '["$"]', '["$@1"]', '["$K1"]', '["$T"]', '["$n1"]', '["$nx"]', '["$D2020"]', '[{"a":"$1:a:b"}]', '[{"__proto__":{"x":1}}]', "[" + "[".repeat(40) + "]".repeat(40) + "]", JSON.stringify(Array.from({ length: MAX_ACTION_ARGUMENTS + 1 }, () => 1))]) {
      expect(await action(body), body.slice(0, 60)).not.toBeNull();
    }
  });

  it("refuse broken multipart and parts other than the arguments", async () => {
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    expect(await action("garbage", type)).not.toBeNull();
    expect(await action(`--${BOUNDARY}\r\n`, type)).not.toBeNull();
    expect(await action(multipart([["0", "[]"]]), "multipart/form-data")).not.toBeNull();
    expect(await action(multipart([["1", "{}"]]), type)).not.toBeNull();
    expect(await action(multipart([["0", "garbage"]]), type)).not.toBeNull();
    expect(await action(multipart([["0", '["$1"]'], ["1", "{}"]]), type)).not.toBeNull();
    expect(await action(multipart([["0", '["$K1"]'], ["1_a", "b"]]), type)).not.toBeNull();
  });

  it("check forms posted without JavaScript: readable, no bound arguments", async () => {
    const form = (body: string, type = `multipart/form-data; boundary=${BOUNDARY}`) => actionBodyProblem(post(body, { "content-type": type }));
    expect(await form(multipart([["$ACTION_ID_0092c1", ""]]))).toBeNull();
    expect(await form(multipart([["$ACTION_KEY", "k"], ["$ACTION_ID_0092c1", ""], ["name", "x"]]))).toBeNull();
    expect(await form(multipart([["q", "x"]]))).toBeNull();
    expect(await form("garbage")).not.toBeNull();
    expect(await form(`--${BOUNDARY}\r\n`)).not.toBeNull();
    expect(await form(multipart([["$ACTION_REF_1", ""], ["$ACTION_1:0", '{"id":"7f00","bound":null}']]))).not.toBeNull();
    // Not multipart and no Next-Action: not an action body, the page answers it.
    expect(await form("a=1", "application/x-www-form-urlencoded")).toBeNull();
    expect(await form("{", "application/json")).toBeNull();
  });

  it("leave other methods alone", async () => {
    expect(await actionBodyProblem(new Request("http://console.test/subscribers", { headers: { "next-action": "7f00" } }))).toBeNull();
  });

  it("explain each refusal in a sentence", () => {
    expect(replyProblem("garbage")).toMatch(/not JSON/);
    expect(replyProblem('{"a":1}')).toMatch(/not a list/);
    expect(replyProblem('["$1"]')).toMatch(/plain values/);
  });
});
