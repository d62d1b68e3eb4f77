// ESLint rule: every write runs in lib/db/transaction.ts's transaction(), which runs it again when
// PostgreSQL aborts it to break a deadlock and writes its audit event with it
// (docs/decisions/0038-one-transaction-path.md). So a statement that changes rows is written only
// where a transaction is at hand (the work given to transaction(), or a function taking a `Tx`,
// which only transaction() makes) and is sent by it; Prisma's model writes go through it too.

import { DELEGATE_HOLDER, holderName, propertyName } from "./names.mjs";

/** SQL text that changes rows: INSERT, UPDATE … SET, DELETE, MERGE (a `FOR UPDATE` lock is a read's). */
const WRITE_SOURCE = String.raw`\b(?:INSERT\s+INTO|UPDATE\s+(?:ONLY\s+)?[\w."]+(?:\s+(?:AS\s+)?\w+)?\s+SET|DELETE\s+FROM|MERGE\s+INTO)\b`;
/** In a `sql` statement or text sent by a query, in any case; in other text, as SQL is written here (capitals), so words in a sentence are not taken for it. */
const WRITE_ANY_CASE = new RegExp(WRITE_SOURCE, "i");
const WRITE_IN_CAPITALS = new RegExp(WRITE_SOURCE);

/** Prisma's model methods that change rows. */
const WRITING = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);

const isFunction = (node) => ["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"].includes(node.type);
const named = (param) => (param.type === "AssignmentPattern" ? param.left : param);
const typedTx = (param) => {
  const type = named(param).typeAnnotation?.typeAnnotation;
  return type?.type === "TSTypeReference" && type.typeName.type === "Identifier" && type.typeName.name === "Tx";
};

/** The names a unit of work's transaction goes by where `node` is written: the work given to transaction(), or a function taking a `Tx`. */
function transactionsAround(node) {
  const names = new Set();
  for (let n = node.parent; n; n = n.parent) {
    if (!isFunction(n)) continue;
    const work = n.parent.type === "CallExpression" && n.parent.arguments[0] === n && n.parent.callee.type === "Identifier" && n.parent.callee.name === "transaction";
    for (const [i, param] of n.params.entries()) {
      if (((work && i === 0) || typedTx(param)) && named(param).type === "Identifier") names.add(named(param).name);
    }
  }
  return names;
}

/** What sends a statement written as a call's argument: `x.query(sql…)` → x, `query(sql…)` → null; undefined when it is not sent there. */
function sender(node) {
  const statement = node.parent.type === "TaggedTemplateExpression" ? node.parent : node;
  const call = statement.parent;
  if (call?.type !== "CallExpression" || call.arguments[0] !== statement) return undefined;
  if (call.callee.type === "Identifier" && call.callee.name === "query") return null;
  if (call.callee.type === "MemberExpression" && propertyName(call.callee) === "query") return call.callee.object;
  return undefined;
}

const isOneOf = (node, names) => node?.type === "Identifier" && names.has(node.name);

const MESSAGE = "A write runs in transaction() (lib/db/transaction.ts), sent by its tx: retried on a deadlock, its audit event with it (decision 0038).";

/** @type {import("eslint").Rule.RuleModule} */
const writesInTransaction = {
  meta: { type: "problem", docs: { description: "Every write runs in transaction(), through its tx." }, schema: [] },
  create(context) {
    const check = (node, text) => {
      const by = sender(node);
      const tagged = node.parent.type === "TaggedTemplateExpression" && node.parent.tag.type === "Identifier" && node.parent.tag.name === "sql";
      if (!(tagged || by !== undefined ? WRITE_ANY_CASE : WRITE_IN_CAPITALS).test(text)) return;
      const names = transactionsAround(node);
      if (names.size === 0 || (by !== undefined && !isOneOf(by, names))) context.report({ node, message: MESSAGE });
    };
    return {
      TemplateLiteral(node) {
        check(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(" ${} "));
      },
      Literal(node) {
        if (typeof node.value === "string") check(node, node.value);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || !WRITING.has(propertyName(callee))) return;
        // A model's write (`x.branch.update(…)`) on anything but the unit's transaction: the client's, outside it.
        const model = callee.object;
        if (model.type !== "MemberExpression" || model.computed || !/^[a-z]\w*$/.test(propertyName(model)) || !DELEGATE_HOLDER.test(holderName(model.object))) return;
        if (!isOneOf(model.object, transactionsAround(node))) context.report({ node, message: MESSAGE });
      },
    };
  },
};

export default writesInTransaction;
