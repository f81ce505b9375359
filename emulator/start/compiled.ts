/**
 * The entry of the compiled emulator (build-steps/emulator/compile-emulator.ts): what a process that
 * loads it may call. Run as a script (`node emulator.cjs --port 0`), the bundle is the CLI: cli.ts
 * starts it when the bundle is the process's main module, exactly as when cli.ts itself is.
 */
export { describeSeed, REPOSITORY_ROOT, runEmulatorCli } from './cli';
export { startEmulator } from './server';
