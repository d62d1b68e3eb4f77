// ESLint rule: the browser calls a server action through callAction (components/ui/call-action.ts),
// so a page loaded from the build before an upgrade reloads instead of failing
// (docs/decisions/0044-expand-and-contract.md). In a client module, an action imported from an
// `actions` module is not awaited or `.then`ed where it is called: its promise goes to callAction,
// or to a component or hook that calls it through callAction (`run`, `send`).

/** @type {import("eslint").Rule.RuleModule} */
const callAction = {
  meta: { type: "problem", docs: { description: "Server actions are called from the browser through callAction." }, schema: [] },
  create(context) {
    const actions = new Set();
    let client = false;
    return {
      Program(node) {
        client = node.body.some((s) => s.type === "ExpressionStatement" && s.directive === "use client");
      },
      ImportDeclaration(node) {
        if (!/(^|[/-])actions$/.test(String(node.source.value)) || node.importKind === "type") return;
        for (const s of node.specifiers) if (s.type === "ImportSpecifier" && s.importKind !== "type") actions.add(s.local.name);
      },
      CallExpression(node) {
        if (!client || node.callee.type !== "Identifier" || !actions.has(node.callee.name)) return;
        const parent = node.parent;
        const awaited = parent.type === "AwaitExpression" || (parent.type === "ConditionalExpression" && parent.parent.type === "AwaitExpression");
        const chained = parent.type === "MemberExpression" && parent.object === node;
        if (awaited || chained) {
          context.report({ node, message: `Call ${node.callee.name} through callAction(() => …) (components/ui/call-action.ts): a page from the build before an upgrade reloads then.` });
        }
      },
    };
  },
};

export default callAction;
