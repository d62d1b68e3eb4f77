import { describe, expect, it } from "vitest";
import { problem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { TooManyRequestsError } from "@/lib/load/user-limit";
import { tooManyRequestsPage } from "@/lib/security/unavailable-page";
import { StorageUnavailableError } from "@/lib/storage/types";
import { fieldText, type ValueWords } from "@/lib/subscribers/merge-fields";
import { passwordSetSchema } from "@/lib/users/schema";

// What lib code tells a person is a problem key, put into words where it is shown, in the
// reader's language (docs/decisions/0048-languages.md): these were English sentences once.

describe("refusals said in the reader's language", () => {
  it("the set-password form's mismatch is a key of problems.users", () => {
    const result = passwordSetSchema.safeParse({ token: "t", password: "a long enough password 1!", confirm: "another one" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.find((i) => i.path[0] === "confirm")?.message).toBe(problem("users.passwordsDiffer"));
    expect(problemsIn("fr")(problem("users.passwordsDiffer"))).toBe("Les deux mots de passe diffèrent.");
  });

  it("too many lists loading: a key with its count, the plural in each language", () => {
    const error = new TooManyRequestsError(1);
    expect(error).toMatchObject({ status: 429, code: "too_many_requests", message: problem("load.tooManyLists", { running: 1 }) });
    expect(problemsIn("en")(error.message)).toBe("You already have 1 list or export loading. Wait for them to finish, then try again.");
    expect(problemsIn("en")(new TooManyRequestsError(2).message)).toBe("You already have 2 lists or exports loading. Wait for them to finish, then try again.");
    expect(problemsIn("ar")(new TooManyRequestsError(2).message)).toContain("قائمتان أو تصديران");
  });

  it("the proxy's 429 page says the refusal in the browser's language", () => {
    const message = new TooManyRequestsError(3).message;
    const french = tooManyRequestsPage("abcdefghijklmnopqrstuv==", message, "fr-FR,fr;q=0.9");
    expect(french).toContain("Vous avez déjà 3 listes ou exports en cours de chargement.");
    expect(french).not.toContain("load.tooManyLists");
    expect(tooManyRequestsPage("abcdefghijklmnopqrstuv==", message, null)).toContain("You already have 3 lists or exports loading.");
  });

  it("the storage's outage keeps its code, its message a key", () => {
    const error = new StorageUnavailableError("unreachable");
    expect(error).toMatchObject({ status: 503, code: "storage_unavailable", message: problem("storage.unavailable") });
    expect(problemsIn("en")(error.message)).toBe("The file storage cannot be reached right now. Try again in a few seconds.");
    expect(problemsIn("ar")(error.message)).not.toBe(error.message);
  });
});

describe("the duplicates review's values", () => {
  it("names a country through the page's namer, and an empty one as empty", () => {
    const words: ValueWords = { day: String, status: String, flag: String, country: (name) => (name === "Morocco" ? "Maroc" : name) };
    const row = { country_name: "Morocco" } as Parameters<typeof fieldText>[0];
    expect(fieldText(row, "country_name", words)).toBe("Maroc");
    expect(fieldText({ ...row, country_name: null } as unknown as Parameters<typeof fieldText>[0], "country_name", words)).toBeNull();
  });
});
