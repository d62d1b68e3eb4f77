// ESLint rule: every write runs in lib/db/transaction.ts's transaction(), which runs it again when
// PostgreSQL aborts it to break a deadlock and writes its audit event with it
// (docs/decisions/0038-one-transaction-path.md). So a statement that changes rows is written only
// where a transaction is at hand (the work given to transaction(), or a function taking a `Tx`,
// which only transaction() makes) and is sent by it; Prisma's model writes go through it too.

import { readFileSync } from "node:fs";
import { DELEGATE_HOLDER, holderName, isSqlTagged, propertyName, templateParts } from "./names.mjs";

/** Prisma's delegates, one per model of the schema (`model ApiToken` → `apiToken`). */
const DELEGATES = new Set(
  [...readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8").matchAll(/^model\s+(\w+)/gm)].map(([, name]) => name[0].toLowerCase() + name.slice(1)),
);

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

/** The statement a template or string is: the `sql` tag's expression, and one of a `?:`'s two statements. */
function statementOf(node) {
  let statement = node.parent.type === "TaggedTemplateExpression" ? node.parent : node;
  while (statement.parent?.type === "ConditionalExpression" && statement.parent.test !== statement) statement = statement.parent;
  return statement;
}

/** What a call sends a statement by: `x.query(…)` → x, `query(…)` → null; undefined when it is not a query. */
function senderOf(call) {
  if (call?.type !== "CallExpression") return undefined;
  if (call.callee.type === "Identifier" && call.callee.name === "query") return null;
  if (call.callee.type === "MemberExpression" && propertyName(call.callee) === "query") return call.callee.object;
  return undefined;
}

/** What sends a statement written as a call's argument: `x.query(sql…)` → x, `query(sql…)` → null; undefined when it is not sent there. */
function sender(node) {
  const statement = statementOf(node);
  return statement.parent?.type === "CallExpression" && statement.parent.arguments[0] === statement ? senderOf(statement.parent) : undefined;
}

const isOneOf = (node, names) => node?.type === "Identifier" && names.has(node.name);

const MESSAGE = "A write runs in transaction() (lib/db/transaction.ts), sent by its tx: retried on a deadlock, its audit event with it (decision 0038).";
const SENT_ASIDE = "In a unit of work every statement goes by its tx: anything else sends it outside the transaction (and on PGlite waits for it) (decision 0038).";
const DELEGATE_ASIDE = "A Prisma model's delegate is called where it is reached (`tx.user.update(…)`): kept aside or handed on, its writes are out of this rule's sight (decision 0038).";
const CARRIED_OFF = "A write written in a unit of work is sent there by its tx, where it is written or from a const only its tx sends (decision 0038).";

/** @type {import("eslint").Rule.RuleModule} */
const writesInTransaction = {
  meta: { type: "problem", docs: { description: "Every write runs in transaction(), through its tx." }, schema: [] },
  create(context) {
    const check = (node, text) => {
      const by = sender(node);
      const tagged = isSqlTagged(node);
      if (!(tagged || by !== undefined ? WRITE_ANY_CASE : WRITE_IN_CAPITALS).test(text)) return;
      const names = transactionsAround(node);
      if (names.size === 0) return context.report({ node, message: MESSAGE });
      // Sent right here: by anything but the tx, the call itself is refused (CallExpression below).
      if (by !== undefined) return;
      // Kept in a const: every use of it is the tx sending it, so it cannot leave the work.
      const statement = statementOf(node);
      const declarator = statement.parent;
      const kept =
        declarator.type === "VariableDeclarator" &&
        declarator.init === statement &&
        declarator.parent.kind === "const" &&
        context.sourceCode.getDeclaredVariables(declarator).every((variable) =>
          variable.references.every((ref) => ref.init || (ref.identifier.parent.type === "CallExpression" && ref.identifier.parent.arguments[0] === ref.identifier && isOneOf(senderOf(ref.identifier.parent), names))),
        );
      if (!kept) context.report({ node, message: CARRIED_OFF });
    };
    return {
      TemplateLiteral(node) {
        check(node, templateParts(node).join(" ${} "));
      },
      Literal(node) {
        if (typeof node.value === "string") check(node, node.value);
      },
      // A model's delegate reached from the client or a transaction but not called there (kept in a
      // variable, handed to a function, returned): whatever it later writes, the rule could not tell on what.
      MemberExpression(node) {
        if (!DELEGATES.has(propertyName(node)) || !DELEGATE_HOLDER.test(holderName(node.object))) return;
        const use = node.parent;
        const called = use.type === "MemberExpression" && use.object === node && use.parent.type === "CallExpression" && use.parent.callee === use;
        if (!called) context.report({ node, message: DELEGATE_ASIDE });
      },
      VariableDeclarator(node) {
        const init = node.init?.type === "AwaitExpression" ? node.init.argument : node.init;
        if (!init || node.id.type !== "ObjectPattern" || !DELEGATE_HOLDER.test(holderName(init))) return;
        if (node.id.properties.some((p) => p.type === "Property" && DELEGATES.has(propertyName(p)))) context.report({ node, message: DELEGATE_ASIDE });
      },
      CallExpression(node) {
        // A statement sent, in a unit of work, by anything but its tx: whatever it is, the rule may not be able to read it.
        const by = senderOf(node);
        if (by !== undefined && node.arguments.length > 0) {
          const names = transactionsAround(node);
          if (names.size > 0 && !isOneOf(by, names)) return context.report({ node, message: SENT_ASIDE });
        }
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
