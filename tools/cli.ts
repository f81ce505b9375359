/** Runs a command-line entry point: an error ends the process with its message and exit code 1. */
export function runCli(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
