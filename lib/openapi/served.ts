import { apiDocument } from "./document";

let document: ReturnType<typeof apiDocument> | undefined;

/** The document, generated once per process: it changes only with the code. */
export function servedDocument() {
  document ??= apiDocument();
  return document;
}
