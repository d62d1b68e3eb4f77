// `next start` in WEB_CONCURRENCY processes (default 1) sharing one port through Node's cluster,
// as the console's server.ts runs its own: the floor of an app that uses every core.
import cluster from "node:cluster";

const processes = Number(process.env.WEB_CONCURRENCY ?? 1);
if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i++) cluster.fork();
  process.once("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    process.exit(0);
  });
} else {
  // Next's own command line, with this process's arguments (`start -H … -p …`).
  await import("next/dist/bin/next");
}
