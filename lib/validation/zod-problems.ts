import { z } from "zod";
import { problem } from "@/lib/i18n/problem";

// zod's own messages are English sentences: every issue without a message of its schema becomes a
// problem key (lib/i18n/problem.ts), put into the reader's language where it is shown. Imported by
// lib/validation/common.ts, which every schema module reads.

z.config({
  customError(issue) {
    const origin = "origin" in issue ? issue.origin : undefined;
    switch (issue.code) {
      case "invalid_type":
        return issue.input === undefined || issue.input === null ? problem("common.required") : problem("common.invalid");
      case "too_small":
        if (origin === "string") return Number(issue.minimum) <= 1 ? problem("common.required") : problem("common.tooShort", { min: Number(issue.minimum) });
        if (origin === "array" || origin === "set") return problem("common.tooFew", { min: Number(issue.minimum) });
        return problem("common.tooSmall", { min: Number(issue.minimum) });
      case "too_big":
        if (origin === "string") return problem("common.tooLong", { max: Number(issue.maximum) });
        if (origin === "array" || origin === "set") return problem("common.tooMany", { max: Number(issue.maximum) });
        return problem("common.tooBig", { max: Number(issue.maximum) });
      case "invalid_format":
        return issue.format === "email" ? problem("common.email") : problem("common.invalid");
      case "invalid_value":
        return problem("common.notAnOption");
      case "unrecognized_keys":
        return problem("common.unknownKeys", { keys: issue.keys.join(", ") });
      default:
        return problem("common.invalid");
    }
  },
});
