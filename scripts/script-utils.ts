import { toolEnv } from "@/tools/env";

/** Runs a CLI script: a one-line message and exit code 1 on failure (the stack only with DEBUG). */
export function runScript(main: () => Promise<void>) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(toolEnv(["DEBUG"]).DEBUG !== undefined ? error : `Error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
