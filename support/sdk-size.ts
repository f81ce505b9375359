/**
 * Bundle-size benchmark of the platform SDK against the reference client (`@base44/sdk`).
 *
 * Both are bundled the same way a browser page would load them: esbuild, browser platform, minified,
 * ES modules with code splitting. For our SDK the figure is what a page downloads before anything
 * subscribes: the entry chunk plus the chunks it imports statically. The real-time chunk (loaded by
 * the first subscribe) is reported on its own. The reference imports socket.io-client and axios
 * statically, so all of it counts. Sizes are gzip level 9 via node:zlib, summed per file.
 *
 * Usage: `npx tsx tools/bench/sdk-size.ts`. Exits 1 when the SDK misses the target.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type OutputFile } from 'esbuild';

const ROOT = path.resolve(__dirname, '..');
/** Our initial bundle may be at most this fraction of the reference bundle. */
export const TARGET_RATIO = 1 / 5;

// Each entry constructs a client and keeps it reachable, so tree-shaking keeps what createClient needs.
const OUR_ENTRY = `import { createClient } from './lib/sdk';
globalThis.platformClient = createClient({ serverUrl: 'https://platform.example', appId: 'bench' });`;
const REFERENCE_ENTRY = `import { createClient } from '@base44/sdk';
globalThis.platformClient = createClient({ serverUrl: 'https://platform.example', appId: 'bench' });`;

export interface BundleFigures {
  /** Bytes a page loads up front (entry + static imports), minified. */
  rawBytes: number;
  /** The same, gzipped. */
  gzipBytes: number;
  /** Gzipped bytes of chunks loaded only through dynamic import (real-time). */
  lazyGzipBytes: number;
}

export interface SdkSizeReport {
  ours: BundleFigures;
  reference: BundleFigures;
  /** ours.gzipBytes / reference.gzipBytes */
  ratio: number;
  targetRatio: number;
  meetsTarget: boolean;
}

function gzipSize(file: OutputFile): number {
  return gzipSync(file.contents, { level: 9 }).length;
}

/** Output paths reachable from `start` through static imports only. */
function staticClosure(metafile: Metafile, start: string): Set<string> {
  const reached = new Set<string>([start]);
  const pending = [start];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const imported of metafile.outputs[current]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !reached.has(imported.path)) {
        reached.add(imported.path);
        pending.push(imported.path);
      }
    }
  }
  return reached;
}

async function bundle(entry: string): Promise<BundleFigures> {
  const outdir = path.join(ROOT, '.bench', 'sdk-size');
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'bench-entry.ts', loader: 'ts' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    // Next.js 16's default browser targets (Chrome/Edge/Firefox 111, Safari 16.4) run ES2022 unlowered.
    target: 'es2022',
    outdir,
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    tsconfig: path.join(ROOT, 'tsconfig.json'),
  });
  const toKey = (absolute: string) => path.relative(ROOT, absolute).split(path.sep).join('/');
  // Dynamically imported modules are entry points too in esbuild's metafile: pick the page's own entry.
  const entryKey = Object.entries(result.metafile.outputs).find(
    ([, output]) => output.entryPoint === 'bench-entry.ts',
  )?.[0];
  if (!entryKey) throw new Error('esbuild produced no entry chunk');
  const initial = staticClosure(result.metafile, entryKey);
  const figures: BundleFigures = { rawBytes: 0, gzipBytes: 0, lazyGzipBytes: 0 };
  for (const file of result.outputFiles) {
    const key = toKey(file.path);
    if (!key.endsWith('.js')) continue;
    if (initial.has(key)) {
      figures.rawBytes += file.contents.length;
      figures.gzipBytes += gzipSize(file);
    } else {
      figures.lazyGzipBytes += gzipSize(file);
    }
  }
  return figures;
}

/** Bundles both clients in one run and returns the figures (for `npm run bench` and tests). */
export async function measureSdkSizes(): Promise<SdkSizeReport> {
  const [ours, reference] = await Promise.all([bundle(OUR_ENTRY), bundle(REFERENCE_ENTRY)]);
  const ratio = ours.gzipBytes / reference.gzipBytes;
  return { ours, reference, ratio, targetRatio: TARGET_RATIO, meetsTarget: ratio <= TARGET_RATIO };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** The report as a printable table. */
export function formatSdkSizeReport(report: SdkSizeReport): string {
  const rows = [
    ['bundle', 'minified', 'gzip', 'lazy real-time (gzip)'],
    ['lib/sdk createClient', kb(report.ours.rawBytes), kb(report.ours.gzipBytes), kb(report.ours.lazyGzipBytes)],
    ['@base44/sdk createClient', kb(report.reference.rawBytes), kb(report.reference.gzipBytes), '(included)'],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  const verdict = report.meetsTarget ? 'meets' : 'MISSES';
  lines.push(
    '',
    `ratio ${(report.ratio * 100).toFixed(1)}% of the reference; target <= ${(report.targetRatio * 100).toFixed(0)}%: ${verdict}`,
  );
  return lines.join('\n');
}
