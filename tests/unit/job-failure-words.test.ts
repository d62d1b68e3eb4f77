import { describe, expect, it } from "vitest";
import { cutText, problem, readProblem } from "@/lib/i18n/problem";
import { problemsIn } from "@/lib/i18n/problems-in";
import { english, importWordsIn, oneMessage } from "@/lib/imports/words";

// Why a background job failed is stored as a problem key (lib/i18n/problem.ts), so that each reader
// reads it in their own language; a failure stored before, in English, is shown as it was written.

const en = problemsIn("en");
const fr = problemsIn("fr");
const ar = problemsIn("ar");

describe("a failed job's reason", () => {
  it("is a key with its values, never words", () => {
    const stopped = problem("bulk.stoppedAfter", { attempts: 2, reason: "disk on fire" });
    expect(stopped).toBe('bulk.stoppedAfter {"attempts":2,"reason":"disk on fire"}');
    expect(readProblem(stopped)).toEqual({ key: "bulk.stoppedAfter", values: { attempts: 2, reason: "disk on fire" } });
  });

  it("reads in English as it always did, and in French and Arabic in their own words", () => {
    const scope = problem("export.scopeChanged");
    expect(en(scope)).toBe("Your branches changed while the file was written, so it was not kept. Request the export again.");
    expect(fr(scope)).toBe("Vos agences ont changé pendant l’écriture du fichier : il n’a donc pas été conservé. Demandez l’export à nouveau.");
    expect(ar(scope)).toBe("تغيّرت فروعك أثناء كتابة الملف، لذا لم يُحتفظ به. اطلب التصدير مرة أخرى.");

    expect(en(problem("export.jobLost"))).toBe("The export job was lost. Request it again.");
    expect(fr(problem("export.jobLost"))).toBe("La tâche d’export a été perdue. Demandez l’export à nouveau.");

    // The worker's own error text stays a value inside the sentence.
    const once = problem("export.failedAfter", { attempts: 1, reason: "job failed by timeout in active state" });
    expect(en(once)).toBe("The export could not be completed after 1 attempt (job failed by timeout in active state). Request it again.");
    expect(en(problem("export.failedAfter", { attempts: 2, reason: "EACCES" }))).toBe("The export could not be completed after 2 attempts (EACCES). Request it again.");
    expect(fr(once)).toBe("L’export n’a pas pu être terminé après 1 tentative (job failed by timeout in active state). Demandez-le à nouveau.");
    expect(ar(problem("export.failedAfter", { attempts: 2, reason: "EACCES" }))).toBe("تعذّر إكمال التصدير بعد محاولتين (\u2068EACCES\u2069). اطلب التصدير مرة أخرى.");

    // An error the console raised itself is a problem too: it reads in the same language.
    const unreachable = problem("export.failedAfter", { attempts: 2, reason: problem("storage.unavailable") });
    expect(fr(unreachable)).toBe(`L’export n’a pas pu être terminé après 2 tentatives (${fr(problem("storage.unavailable"))}). Demandez-le à nouveau.`);
    expect(fr(unreachable)).not.toContain("storage.unavailable");

    const bulk = problem("bulk.stoppedAfter", { attempts: 3, reason: "disk on fire" });
    expect(en(bulk)).toBe("The bulk change stopped after 3 attempts (disk on fire). The batches done are kept.");
    expect(fr(bulk)).toBe("La modification groupée s’est arrêtée après 3 tentatives (disk on fire). Les lots déjà traités sont conservés.");
    expect(ar(bulk)).toBe("توقّف التغيير الجماعي بعد 3 محاولات (\u2068disk on fire\u2069). الدفعات المنجزة محفوظة.");

    const imports = problem("imports.stoppedAfter", { attempts: 2, reason: "out of memory" });
    expect(english(imports)).toBe("The import stopped after 2 attempts (out of memory). Nothing was imported: start it again.");
    expect(importWordsIn("fr")(imports)).toBe("L’import s’est arrêté après 2 tentatives (out of memory). Rien n’a été importé : lancez-le à nouveau.");

    const preview = problem("imports.previewWithdrawn");
    expect(english(preview)).toBe("This file was withdrawn: it held a person whose personal data was erased. Upload the file again without them.");
    expect(importWordsIn("fr")(preview)).toMatch(/^Ce fichier a été retiré : il contenait une personne/);
    expect(importWordsIn("ar")(preview)).toMatch(/^سُحب هذا الملف/);
  });

  it("says why an export was withdrawn and its size, counted in the reader's language", () => {
    const withdrawn = (rows: number, why: string) => problem("export.withdrawn", { rows, why });
    expect(en(withdrawn(1234, "deleted"))).toBe("Your file of 1,234 rows was withdrawn: it held a subscriber who was deleted forever. Request the export again.");
    expect(en(withdrawn(1, "erased"))).toBe("Your file of 1 row was withdrawn: it held a person whose personal data was erased. Request the export again.");
    expect(en(withdrawn(0, "retention"))).toBe("Your file of 0 rows was withdrawn: it held subscribers erased at the end of their retention period. Request the export again.");
    expect(fr(withdrawn(1234, "deleted"))).toBe("Votre fichier de 1\u202f234 lignes a été retiré : il contenait un abonné supprimé définitivement. Demandez l’export à nouveau.");
    expect(fr(withdrawn(1, "erased"))).toMatch(/^Votre fichier de 1 ligne a été retiré : il contenait une personne dont les données personnelles ont été effacées\./);
    expect(ar(withdrawn(2, "retention"))).toBe("سُحب ملفك المؤلف من صفّين: كان يتضمن مشتركين مُحوا عند انتهاء مدة الاحتفاظ بهم. اطلب التصدير مرة أخرى.");
  });

  it("lists an import's several problems, each in the reader's words", () => {
    const problems = [problem("imports.sameName", { names: "Email" }), problem("imports.filledTwice", { field: "first_name", count: 2 })];
    expect(oneMessage(problems.slice(0, 1))).toBe(problems[0]);
    const several = oneMessage(problems);
    expect(readProblem(several)?.key).toBe("imports.severalProblems");
    expect(english(several)).toBe("Two columns have the same name: Email. Rename one of them. First name is filled from 2 columns: choose one.");
    expect(importWordsIn("fr")(several)).toMatch(/^Deux colonnes .* Prénom est rempli/);
  });

  it("leaves a failure stored before, in English, as it is", () => {
    const old = "The bulk change stopped after 2 attempts (disk on fire). The batches done are kept.";
    expect(fr(old)).toBe(old);
    expect(importWordsIn("ar")("The import stopped after 2 attempts (x). Nothing was imported: start it again.")).toMatch(/^The import stopped/);
  });

  it("is stored whole however long, and other text cut", () => {
    const long = problem("bulk.stoppedAfter", { attempts: 2, reason: "x".repeat(600) });
    expect(cutText(long, 500)).toBe(long);
    expect(cutText("y".repeat(600), 500)).toBe("y".repeat(500));
  });
});
