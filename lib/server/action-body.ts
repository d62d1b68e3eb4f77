// The body of a server action, checked before Next.js and React decode it (proxy.ts).
//
// A POST to a page is a server action when it names one (the `Next-Action` header: the arguments
// in React's reply format, as text or multipart) or when it is a form posted without JavaScript
// (multipart with `$ACTION_ID_…` fields, the header's sign-out button). React's decoder throws on
// a body it cannot read (broken JSON or multipart, a reference to a part that is missing, a root
// that is not an argument list, a BigInt of letters…) and Next answers every such throw with a
// 500. The console's actions take plain values only (the filters of a list, a form's fields, an
// id), so only plain values are let through: JSON whose strings are not references, at most a
// few arguments, no deeper than a form. Anything else is refused with a 400 that says so; React's
// decoder, where the "React2Shell" class of bugs lived, never sees it.

/** The console's actions take one argument; a few more leave room, Next's own cap is 1,000. */
export const MAX_ACTION_ARGUMENTS = 16;
/** Forms are an object of fields (some of them lists); deeper is not the console's. */
const MAX_ACTION_DEPTH = 16;

/**
 * Strings React reads as plain values: `$$…` is a string starting with `$`, `$undefined` and the
 * non-finite numbers are values. Every other `$…` is a reference (a promise, a map, a blob, a
 * server function, another part of the body…) that no action of the console takes.
 */
const PLAIN_DOLLAR = /^(\$\$[\s\S]*|\$undefined|\$NaN|\$Infinity|\$-Infinity|\$-0)$/;

function isPlainValue(value: unknown, depth: number): boolean {
  if (depth > MAX_ACTION_DEPTH) return false;
  if (value === null || typeof value === "number" || typeof value === "boolean") return true;
  if (typeof value === "string") return !value.startsWith("$") || PLAIN_DOLLAR.test(value);
  if (Array.isArray(value)) return value.every((item) => isPlainValue(item, depth + 1));
  if (typeof value === "object") {
    return Object.entries(value).every(([key, item]) => key !== "__proto__" && isPlainValue(item, depth + 1));
  }
  return false;
}

/** Why the arguments of a fetch action (React's reply as JSON text) are refused, or null. */
export function replyProblem(text: string): string | null {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return "The action's arguments are not JSON.";
  }
  if (!Array.isArray(args)) return "The action's arguments are not a list.";
  if (args.length > MAX_ACTION_ARGUMENTS) return "The action has too many arguments.";
  if (!isPlainValue(args, 0)) return "The console's actions take plain values only (text, numbers, lists and objects of them).";
  return null;
}

const isMultipart = (type: string) => /^multipart\/form-data\b/i.test(type);

async function formFields(request: Request): Promise<[string, FormDataEntryValue][] | null> {
  try {
    return [...(await request.clone().formData()).entries()];
  } catch {
    return null;
  }
}

/** Why a page POST's body is refused before Next decodes it (400), or null to let it through. */
export async function actionBodyProblem(request: Request): Promise<string | null> {
  if (request.method !== "POST") return null;
  const type = request.headers.get("content-type") ?? "";
  const isFetchAction = request.headers.has("next-action");
  if (isFetchAction && !isMultipart(type)) return replyProblem(await request.clone().text());
  if (!isMultipart(type)) return null; // a form Next does not read as an action: the page answers it
  const fields = await formFields(request);
  if (fields === null) return "The form's body is not valid multipart/form-data.";
  if (isFetchAction) {
    // React sends multipart only for values the console's actions never take (files, references):
    // the one part its plain arguments can be is "0".
    if (fields.length !== 1 || fields[0]![0] !== "0" || typeof fields[0]![1] !== "string") return "The console's actions take plain values only.";
    return replyProblem(fields[0]![1]);
  }
  // A form posted without JavaScript: it may name an action, never one with bound arguments.
  if (fields.some(([name]) => name.startsWith("$ACTION_REF_"))) return "The console's forms bind no arguments to their actions.";
  return null;
}
