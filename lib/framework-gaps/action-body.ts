// A server action's body, checked before React decodes it (proxy.ts): React's decoder answers
// 500 to a body it cannot read, and is where the "React2Shell" class of bugs lives. The console's
// actions take plain values only, so anything else is a 400 React never sees (README.md here: when to remove it).

/** The console's actions take one argument; a few more leave room, Next's own cap is 1,000. */
export const MAX_ACTION_ARGUMENTS = 16;
/** Forms are an object of fields (some of them lists); deeper is not the console's. */
const MAX_ACTION_DEPTH = 16;

/** Strings React reads as plain values; every other `$…` is a reference no action of the console takes. */
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
    // The one part plain arguments can be is "0" (multipart is for files and references).
    if (fields.length !== 1 || fields[0]![0] !== "0" || typeof fields[0]![1] !== "string") return "The console's actions take plain values only.";
    return replyProblem(fields[0]![1]);
  }
  // A form posted without JavaScript: it may name an action, never one with bound arguments.
  if (fields.some(([name]) => name.startsWith("$ACTION_REF_"))) return "The console's forms bind no arguments to their actions.";
  return null;
}
