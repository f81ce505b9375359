/**
 * First-load JavaScript of a page in a static export: every script the HTML loads up front, its
 * `<script src>` and the chunks its loader adds after the first paint (firstLoadScripts; modern
 * browsers skip `noModule` polyfills, so those are left out), gzipped at level 9.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { firstLoadScripts } from '../../build-steps/export/framework-loader';

export interface FirstLoad {
  scripts: string[];
  gzipBytes: number;
  htmlBytes: number;
  /** The HTML gzipped at level 9, as hosts send it (docs/PERFORMANCE.md: `/` at most 6 KB). */
  htmlGzipBytes: number;
}

export function measureFirstLoad(outDir: string, htmlFile = 'index.html'): FirstLoad {
  const html = readFileSync(path.join(outDir, htmlFile));
  const scripts = firstLoadScripts(html.toString('utf8'));
  if (scripts.length === 0) throw new Error(`${htmlFile} in ${outDir} loads no script: nothing to measure`);
  const gzipBytes = scripts.reduce(
    (sum, src) => sum + gzipSync(readFileSync(path.join(outDir, src)), { level: 9 }).length,
    0,
  );
  return { scripts, gzipBytes, htmlBytes: html.length, htmlGzipBytes: gzipSync(html, { level: 9 }).length };
}

const FLOOR_FILES: Record<string, string> = {
  'app/layout.tsx':
    'export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  );\n}\n',
  'app/page.tsx': 'export default function Page() {\n  return <main>Hello</main>;\n}\n',
  // The same empty page under the name of the site's second page, so that every page Lighthouse
  // audits has its counterpart at the same address.
  'app/ComingSoon/page.tsx': 'export default function Page() {\n  return <main>Hello</main>;\n}\n',
  'next.config.mjs': "export default { output: 'export' };\n",
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      jsx: 'react-jsx',
      strict: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'ES2022',
      lib: ['dom', 'es2023'],
      skipLibCheck: true,
      noEmit: true,
      isolatedModules: true,
      esModuleInterop: true,
    },
    include: ['**/*.tsx'],
  }),
};

/**
 * Builds an empty App Router static export with the project's own Next.js (same version, same
 * run): the framework floor that the site's first load and Lighthouse figures are compared with
 * (side-by-side.ts serves its `out/`).
 */
export function buildFrameworkFloor(root: string): FirstLoad & { outDir: string } {
  const dir = path.join(root, '.bench', 'floor');
  for (const [file, text] of Object.entries(FLOOR_FILES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [next, 'build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`building the framework floor failed:\n${result.stdout}\n${result.stderr}`);
  const outDir = path.join(dir, 'out');
  return { ...measureFirstLoad(outDir), outDir };
}

/** Chunks of the first load that contain `needle` (e.g. socket.io or bridge code). */
export function firstLoadChunksContaining(outDir: string, needle: RegExp, htmlFile = 'index.html'): string[] {
  const { scripts } = measureFirstLoad(outDir, htmlFile);
  return scripts.filter((src) => needle.test(readFileSync(path.join(outDir, src), 'utf8')));
}
