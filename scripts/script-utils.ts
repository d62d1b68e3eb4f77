/** Runs a CLI script: a one-line message and exit code 1 on failure (the stack only with DEBUG). */
export function runScript(main: () => Promise<void>) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(process.env.DEBUG ? error : `Error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
