/**
 * `npm run emulator [-- options]`: the local platform alone, compiled from emulator/ on each start
 * (build-steps/emulator/compile-emulator.ts says why); the options are emulator/start/cli.ts's.
 */
import { loadCompiledEmulator } from '../../build-steps/emulator/compile-emulator';
import { runCli } from '../cli';

runCli(async () => (await loadCompiledEmulator()).runEmulatorCli(process.argv.slice(2)));
