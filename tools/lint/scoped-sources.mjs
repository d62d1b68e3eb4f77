// ESLint rule: statements on subscribers and branches start from the scoped sources of
// lib/auth/scope.ts (subscribersOf, branchesOf, LIVE_BRANCHES, TRASHED_BRANCHES), never from the
// bare tables, so none can leave out the branch scope or the trash (docs/decisions/0037-scoped-sources.md).

/** SQL text naming a table to read, join or change; or a `sql` fragment that is the table's name alone, to put in one. */
const BARE_TABLE = /\b(from|join|update)\s+(subscribers|branches)\b/i;
const TABLE_FRAGMENT = /^\s*(subscribers|branches)\s*$/i;

/** Prisma's model methods that read or change rows a WHERE picks; creating rows picks none. */
const PICKING = new Set([
  ...["findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow", "findMany", "count", "aggregate", "groupBy"],
  ...["update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"],
]);

const SQL_MESSAGE =
  "Start from the scoped source: FROM ${subscribersOf(scope)} s, FROM ${branchesOf(scope)} b or JOIN ${LIVE_BRANCHES} b (lib/auth/scope.ts, decision 0037).";

/** @type {import("eslint").Rule.RuleModule} */
const scopedSources = {
  meta: { type: "problem", docs: { description: "Statements on subscribers and branches start from the scoped sources." }, schema: [] },
  create(context) {
    return {
      TemplateLiteral(node) {
        const text = node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(" ${} ");
        const fragment = node.parent.type === "TaggedTemplateExpression" && TABLE_FRAGMENT.test(text);
        if (BARE_TABLE.test(text) || fragment) context.report({ node, message: SQL_MESSAGE });
      },
      Literal(node) {
        if (typeof node.value === "string" && BARE_TABLE.test(node.value)) context.report({ node, message: SQL_MESSAGE });
      },
      MemberExpression(node) {
        const model = node.object;
        if (model.type !== "MemberExpression" || model.computed || model.property.type !== "Identifier") return;
        if (!["subscriber", "branch"].includes(model.property.name)) return;
        if (node.computed || node.property.type !== "Identifier" || !PICKING.has(node.property.name)) return;
        context.report({
          node,
          message: `Prisma's ${model.property.name}.${node.property.name} skips the scope: read through the scoped source with raw SQL (lib/auth/scope.ts, decision 0037).`,
        });
      },
    };
  },
};

export default scopedSources;
