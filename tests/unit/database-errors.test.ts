import { describe, expect, it } from "vitest";
import { databaseAppError } from "@/lib/db/errors";
import { problemsIn } from "@/lib/i18n/problems-in";

// What a request answers for a database failure that is no bug: here, a deadlock that outlasted the
// transaction's own retries is a 503 to try again, never a 500.

describe("databaseAppError", () => {
  it("answers a deadlock or a serialization failure left after the retries with 503 busy and Retry-After", () => {
    for (const cause of [Object.assign(new Error("deadlock detected"), { code: "40P01" }), Object.assign(new Error("could not serialize access"), { code: "40001" })]) {
      const wrapped = new Error("Transaction failed", { cause });
      for (const error of [cause, wrapped]) {
        const known = databaseAppError(error);
        expect(known).toMatchObject({ status: 503, code: "busy", retryAfter: 2 });
        // Its message is a problem key (lib/i18n/problem.ts), in English where it is shown.
        expect(problemsIn("en")(known?.message ?? "")).toMatch(/same records .* Try again/);
      }
    }
  });

  it("leaves other errors to the caller", () => {
    expect(databaseAppError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBeNull();
    expect(databaseAppError(new Error("boom"))).toBeNull();
  });
});
