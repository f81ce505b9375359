/**
 * The emulator as one compiled CommonJS file, built from emulator/ each time it starts (esbuild,
 * about 0.1 s), so edits apply on the next start and nothing stale is ever served.
 *
 * Why not run emulator/ through tsx, as before: tsx compiles each TypeScript module to CommonJS on
 * its own, and esbuild's CommonJS interop turns every export into a getter (twice: the module's
 * `__export` getter behind a `__copyProps` one). Every call from one module into another then runs
 * two getters, one of them a single closure shared by all modules whose keyed load goes megamorphic.
 * A request crosses modules hundreds of times. One bundle calls its functions directly: benchmark (a)
 * of issue 33 measured ×1.95–×2.03 the machine's floor per watched write compiled, ×2.30–×2.34
 * through tsx (docs/PERFORMANCE.md, "The emulator compiled"). The tests still load emulator/
 * through jest's transform, and `tsx emulator/start/cli.ts` still works: the compiled file is the
 * same code.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

import type * as CompiledEntry from '../../emulator/start/compiled';

const ROOT = path.resolve(__dirname, '../..');
const ENTRY = path.join(ROOT, 'emulator', 'start', 'compiled.ts');
/** Beside the dependencies it requires at run time (they stay outside the bundle). */
export const COMPILED_EMULATOR = path.join(ROOT, 'node_modules', '.cache', 'emulator', 'emulator.cjs');

export type CompiledEmulator = typeof CompiledEntry;

/**
 * Modules of ours that find their files through `__dirname` (the default seed, the Deno host, the
 * repository root) keep their own folder: each gets a `__dirname` constant of its source folder,
 * which esbuild renames per module when it hoists them into one scope.
 */
const ownFolderPerModule: Plugin = {
  name: 'own-folder-per-module',
  setup(compile) {
    compile.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (args.path.includes(`${path.sep}node_modules${path.sep}`) || !/\b__dirname\b/.test(source)) return undefined;
      // On the first line, so the source map's line numbers stay those of the file.
      return { contents: `const __dirname = ${JSON.stringify(path.dirname(args.path))};${source}`, loader: 'ts' };
    });
  },
};

/**
 * Compiles emulator/ into {@link COMPILED_EMULATOR} and answers its path. Written under a name of its
 * own first and then renamed, so a process starting the emulator meanwhile (the test runners start
 * several) reads a whole file, the previous one or this one.
 */
export async function compileEmulator(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    // Dependencies load from node_modules as they are; only our TypeScript is compiled.
    packages: 'external',
    sourcemap: 'inline',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
    plugins: [ownFolderPerModule],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no emulator bundle');
  mkdirSync(path.dirname(COMPILED_EMULATOR), { recursive: true });
  const partial = `${COMPILED_EMULATOR}.${randomUUID()}.partial`;
  try {
    writeFileSync(partial, output.contents);
    renameSync(partial, COMPILED_EMULATOR);
  } finally {
    rmSync(partial, { force: true });
  }
  return COMPILED_EMULATOR;
}

/** Node's arguments that run the compiled emulator's CLI (`emulator/start/cli.ts`) with `cliArguments`. */
export async function compiledEmulatorCommand(cliArguments: readonly string[]): Promise<string[]> {
  // Stack traces of unexpected errors name the TypeScript files, as under tsx.
  return ['--enable-source-maps', await compileEmulator(), ...cliArguments];
}

/**
 * The compiled emulator in this process (`startEmulator` and the rest of emulator/start/compiled.ts).
 * Compiled once per process: a second call answers the module already loaded.
 */
let loaded: Promise<CompiledEmulator> | null = null;
export function loadCompiledEmulator(): Promise<CompiledEmulator> {
  loaded ??= compileEmulator().then((file) => {
    process.setSourceMapsEnabled(true);
    return createRequire(__filename)(file) as CompiledEmulator;
  });
  return loaded;
}
