// ESLint rule: statements on subscribers and branches start from the scoped sources of
// lib/auth/scope.ts (subscribersOf, branchesOf, LIVE_BRANCHES, TRASHED_BRANCHES), never from the
// bare tables, so none can leave out the branch scope or the trash (docs/decisions/0037-scoped-sources.md).

import { DELEGATE_HOLDER, holderName, isSqlTagged, propertyName, templateParts } from "./names.mjs";

// A table's name as SQL may write it: bare or quoted, with or without its schema.
const TABLE = String.raw`(?:"?public"?\.)?"?(?:subscribers|branches)"?(?![\w"])`;
// What may stand between FROM and a later table of its comma-separated list: no clause that ends the list.
const LIST = String.raw`(?:(?!\b(?:where|order|group|having|limit|select|returning|set|values|on|using)\b)[^;()])*?,\s*`;
/** SQL text naming a table to read, join or change (`ONLY`, `USING` and comma joins included); or a `sql` fragment that is the table's name alone, to put in one. */
const BARE_TABLE = new RegExp(String.raw`\b(?:(?:from|join|update|using|truncate(?:\s+table)?)\s+(?:only\s+)?|from\s+${LIST}(?:only\s+)?)${TABLE}`, "i");
/** A `sql` fragment to put after FROM or JOIN that starts with the table (`subscribers s`) or lists it (`users u, subscribers s`). */
const TABLE_FRAGMENT = new RegExp(String.raw`^\s*(?:[^;()]*?,\s*)?(?:only\s+)?${TABLE}`, "i");
/**
 * Statement text, not a `sql` statement, whose table comes from a value: an interpolation right
 * after the keyword, or text ending there to be completed by concatenation. Plain text cannot bind
 * values, so whatever follows is spliced in as SQL; matched as SQL is written here (capitals).
 */
const TABLE_BY_VALUE = /\b(?:FROM|JOIN|UPDATE|USING|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?$/;

/** Prisma's model methods that read or change rows a WHERE picks; creating rows picks none. */
const PICKING = new Set([
  ...["findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow", "findMany", "count", "aggregate", "groupBy"],
  ...["update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"],
]);

const MODELS = new Set(["subscriber", "branch"]);

const SQL_MESSAGE =
  "Start from the scoped source: FROM ${subscribersOf(scope)} s, FROM ${branchesOf(scope)} b or JOIN ${LIVE_BRANCHES} b (lib/auth/scope.ts, decision 0037).";

const BY_VALUE = "A table named by a value in statement text escapes this rule: write the statement with the `sql` tag, from the scoped source (lib/auth/scope.ts, decision 0037).";

const HANDED_ON = "A Prisma model's delegate kept aside or handed on skips the scope: read through the scoped source with raw SQL (lib/auth/scope.ts, decision 0037).";

/** @type {import("eslint").Rule.RuleModule} */
const scopedSources = {
  meta: { type: "problem", docs: { description: "Statements on subscribers and branches start from the scoped sources." }, schema: [] },
  create(context) {
    return {
      TemplateLiteral(node) {
        const parts = templateParts(node);
        const text = parts.join(" ${} ");
        const tagged = isSqlTagged(node);
        const fragment = tagged && TABLE_FRAGMENT.test(text);
        const byValue = !tagged && parts.some((part) => TABLE_BY_VALUE.test(part));
        if (BARE_TABLE.test(text) || fragment) context.report({ node, message: SQL_MESSAGE });
        else if (byValue) context.report({ node, message: BY_VALUE });
      },
      Literal(node) {
        if (typeof node.value !== "string") return;
        if (BARE_TABLE.test(node.value)) context.report({ node, message: SQL_MESSAGE });
        else if (TABLE_BY_VALUE.test(node.value)) context.report({ node, message: BY_VALUE });
      },
      MemberExpression(node) {
        const model = node.object;
        if (model.type === "MemberExpression") {
          const name = propertyName(model);
          const method = propertyName(node);
          if (MODELS.has(name) && PICKING.has(method)) {
            context.report({
              node,
              message: `Prisma's ${name}.${method} skips the scope: read through the scoped source with raw SQL (lib/auth/scope.ts, decision 0037).`,
            });
          }
        }
        // A model's delegate used other than by calling one of its methods here (handed to a function,
        // returned, kept in a variable) would be called out of the rule's sight.
        if (MODELS.has(propertyName(node)) && DELEGATE_HOLDER.test(holderName(node.object))) {
          const use = node.parent;
          const called = use.type === "MemberExpression" && use.object === node && use.parent.type === "CallExpression" && use.parent.callee === use;
          if (!called) context.report({ node, message: HANDED_ON });
        }
      },
      // A model's delegate destructured from the client or a transaction (`const { branch } = prisma`).
      VariableDeclarator(node) {
        const init = node.init?.type === "AwaitExpression" ? node.init.argument : node.init;
        if (!init || node.id.type !== "ObjectPattern") return;
        if (node.id.properties.some((p) => p.type === "Property" && MODELS.has(propertyName(p))) && DELEGATE_HOLDER.test(holderName(init))) {
          context.report({ node, message: HANDED_ON });
        }
      },
    };
  },
};

export default scopedSources;
