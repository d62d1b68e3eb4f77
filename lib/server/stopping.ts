import { processWide } from "@/lib/process-wide";

// Whether this process is stopping (it received SIGTERM), for the readiness answer a load balancer
// reads (app/api/health/ready/route.ts), and what must be done before it exits. Process-wide:
// server.ts sets it, the route handler in Next's copy of the modules reads it.

const state = processWide("server.stopping", () => ({ stopping: false, tasks: [] as (() => Promise<unknown>)[] }));

export const isStopping = (): boolean => state.stopping;

export function markStopping(): void {
  state.stopping = true;
}

/** Work to finish before the process exits (the in-process job worker hands its jobs back). */
export function beforeExit(task: () => Promise<unknown>): void {
  state.tasks.push(task);
}

/** Runs every task once, together; one that fails does not keep the others from finishing. */
export async function runBeforeExit(): Promise<void> {
  const tasks = state.tasks.splice(0);
  await Promise.allSettled(tasks.map((task) => task()));
}
