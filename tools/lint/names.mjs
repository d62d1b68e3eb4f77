// What the console's lint rules read off the syntax tree: member and property names, and what a
// Prisma delegate is reached from.

/** What holds Prisma's delegates: the client (`prisma`, `(await prisma())`, `database.prisma`) or a transaction, however it is named. */
export const DELEGATE_HOLDER = /^(prisma|tx|q|db|client|database|transaction)$/i;

/** A member's or property's name, computed (`x["subscriber"]`) or not; "" when it is not a plain name. */
export function propertyName(node) {
  const key = node.type === "Property" ? node.key : node.property;
  if (!node.computed && key.type === "Identifier") return key.name;
  return key.type === "Literal" && typeof key.value === "string" ? key.value : "";
}

/** The name an object is reached by: `prisma`, `tx`, `s.database.prisma` → "prisma", `(await prisma())` → "prisma". */
export function holderName(node) {
  if (node.type === "Identifier") return node.name;
  if (node.type === "MemberExpression") return propertyName(node);
  if (node.type === "CallExpression") return holderName(node.callee);
  if (node.type === "AwaitExpression") return holderName(node.argument);
  return "";
}

/** Whether a template is the `sql` tag's: only that tag binds its values; any other (String.raw) splices them in as text. */
export function isSqlTagged(node) {
  return node.parent.type === "TaggedTemplateExpression" && node.parent.tag.type === "Identifier" && node.parent.tag.name === "sql";
}

/** A template's text pieces, as written (the values between them left out). */
export function templateParts(node) {
  return node.quasis.map((q) => q.value.cooked ?? q.value.raw);
}
