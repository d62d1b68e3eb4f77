// State shared by every copy of a module: Next compiles a module once per layer of the build, so
// top-level state exists once per copy; a Symbol.for key is the same in every copy. Hold plain data
// or Node's and packages' classes only, never a class of the console's (lib/errors.ts says why).
// (docs/decisions/0016-one-process-many-copies.md). Not "server-only": scripts, the proxy and server.ts use it.

export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`console.${name}`);
  const holder = globalThis as { [key: symbol]: unknown };
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}
