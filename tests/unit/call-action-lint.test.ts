import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The rule that sends every server action called from the browser through callAction
// (components/ui/call-action.ts): an action awaited or chained where it is called is refused in a
// client module; handed to callAction, or to a component's `run`, it passes; a server module is its own.

const root = path.resolve(__dirname, "../..");
const lint = async (code: string) => {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: path.join(root, "app/(console)/planted/planted-form.tsx") });
  return result!.messages.filter((m) => m.ruleId === "actions/call-action").map((m) => m.line);
};

const client = (body: string) => `"use client";
import { callAction } from "@/components/ui/call-action";
import { saveAction } from "./actions";
${body}
`;

describe("actions/call-action", () => {
  it("refuses an action awaited or chained in a client module", async () => {
    expect(await lint(client("export const a = async () => await saveAction({ id: 1 });\nexport const b = () => saveAction({ id: 1 }).then(() => {});"))).toEqual([4, 5]);
  }, 60_000);

  it("lets callAction, a component's run and a server module pass", async () => {
    expect(await lint(client("export const a = async () => await callAction(() => saveAction({ id: 1 }));\nexport const run = () => saveAction({ id: 1 });"))).toEqual([]);
    expect(await lint(client("").replace('"use client";', "") + "export const a = async () => await saveAction({ id: 1 });")).toEqual([]);
  }, 60_000);
});
