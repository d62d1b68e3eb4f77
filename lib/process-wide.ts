// One value per server process, whichever copy of a module asks for it.
//
// Next compiles a module once per layer of the build that imports it (pages and actions, route
// handlers, instrumentation, the proxy), and server.ts loads its own: state made at a module's top
// level exists once per copy. Context that one layer sets and another reads (a request's abort
// signal, the user whose heavy work runs, a bearer token's user), counts meant for the whole
// process (a token's requests per minute) and the process's one-of-a-kind objects (the database
// and its connections, the file store, the job queue and its worker, the outage sentinel) live
// here instead, on globalThis under a Symbol.for key, which is the same key in every copy; no
// other module should keep state on globalThis itself. Not "server-only": scripts, the proxy and
// server.ts use it.
//
// What such a value holds must not depend on which copy made it: plain data, Node's own classes
// (AsyncLocalStorage, Map), never a class of the console's (lib/errors.ts says why).

export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`console.${name}`);
  const holder = globalThis as { [key: symbol]: unknown };
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}
