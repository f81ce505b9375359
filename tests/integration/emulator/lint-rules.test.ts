/**
 * The emulator's structure rules are ESLint rules: each is shown to fire on a probe file that breaks
 * it and to stay quiet on one that keeps it, so a change to eslint.config.mjs cannot silently drop
 * one. The probes are linted as if they stood at the paths named (nothing is written).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

interface Probe {
  file: string;
  code: string;
}

/**
 * The rule ids ESLint reports for each probe. ESLint runs once, as its own process: its config is
 * an ES module, which Jest's module sandbox cannot import.
 */
function firedRules(probes: readonly Probe[]): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const probes = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const results = [];
    for (const probe of probes) {
      const [result] = await eslint.lintText(probe.code, { filePath: probe.file });
      results.push(result.messages.map((message) => message.ruleId ?? message.message));
    }
    process.stdout.write(JSON.stringify(results));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(probes)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[][];
}

const longFunction = `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(85)}  return n;\n}\n`;

const PROBES: [name: string, probe: Probe, fires: string | null][] = [
  [
    'HttpError below routes/',
    {
      file: 'emulator/store/probe.ts',
      code: "import { HttpError } from '../http/errors';\n\nexport const e = HttpError;\n",
    },
    'no-restricted-imports',
  ],
  [
    'HttpError in routes/',
    {
      file: 'emulator/routes/probe.ts',
      code: "import { HttpError } from '../http/errors';\n\nexport const e = HttpError;\n",
    },
    null,
  ],
  [
    'a domain error below routes/',
    {
      file: 'emulator/store/probe.ts',
      code: "import { invalidInput } from '../core/errors';\n\nexport const e = invalidInput('x');\n",
    },
    null,
  ],
  [
    'store.collection() outside records/',
    {
      file: 'emulator/routes/probe.ts',
      code: "import type { Store } from '../store/store';\n\nexport const write = (store: Store) => store.collection('a', 'B');\n",
    },
    'no-restricted-syntax',
  ],
  [
    'a record write in records/ (its door)',
    {
      file: 'emulator/records/probe.ts',
      code: "import type { Store } from '../store/store';\n\nexport const write = (store: Store) => store.write((change) => change.insertRecords('a', 'B', []));\n",
    },
    null,
  ],
  [
    'a record write outside records/',
    {
      file: 'emulator/routes/probe.ts',
      code: "import type { Store } from '../store/store';\n\nexport const write = (store: Store) => store.write((change) => change.deleteRecords('a', 'B', ['x']));\n",
    },
    'no-restricted-syntax',
  ],
  [
    'a named store operation through the one commit path, in routes/',
    {
      file: 'emulator/routes/probe.ts',
      code: "import type { PageVisit } from '../core/types';\nimport type { Store } from '../store/store';\n\nexport const log = (store: Store, visit: PageVisit) => store.write((change) => change.addPageVisit('a', visit));\n",
    },
    null,
  ],
  [
    'store.data outside store/',
    {
      file: 'emulator/auth/probe.ts',
      code: 'export const read = (store: { data: object }) => store.data;\n',
    },
    'no-restricted-syntax',
  ],
  [
    'context.store.commit() in routes/',
    {
      file: 'emulator/routes/probe.ts',
      code: 'export const commit = (context: { store: { commit(): Promise<void> } }) => context.store.commit();\n',
    },
    'no-restricted-syntax',
  ],
  [
    'an assignment through the store',
    {
      file: 'emulator/auth/probe.ts',
      code: 'export const set = (context: { store: { otps: Record<string, number> } }) => {\n  context.store.otps.a = 1;\n};\n',
    },
    'no-restricted-syntax',
  ],
  [
    'a delete through the store, in records/',
    {
      file: 'emulator/records/probe.ts',
      code: 'export const drop = (store: { otps: Record<string, number> }) => {\n  delete store.otps.a;\n};\n',
    },
    'no-restricted-syntax',
  ],
  [
    'the store changing its own state',
    {
      file: 'emulator/store/probe.ts',
      code: 'export const drop = (store: { data: Record<string, number> }) => {\n  delete store.data.a;\n};\n',
    },
    null,
  ],
  [
    'an upward import (store/ reaching records/)',
    { file: 'emulator/store/probe.ts', code: "export { commitChanges } from '../records/commit';\n" },
    'no-restricted-imports',
  ],
  [
    'a downward import (records/ reaching store/)',
    { file: 'emulator/records/probe.ts', code: "export { Store } from '../store/store';\n" },
    null,
  ],
  ['a function over 80 lines', { file: 'emulator/records/probe.ts', code: longFunction }, 'max-lines-per-function'],
];

describe('the emulator structure rules', () => {
  const fired = firedRules(PROBES.map(([, probe]) => probe));

  it.each(PROBES.map(([name, , fires], index) => [name, fires ?? 'nothing', index] as const))(
    '%s: %s fires',
    (_name, fires, index) => {
      const rules = fired[index] ?? [];
      if (fires === 'nothing') expect(rules).toEqual([]);
      else expect(rules).toContain(fires);
    },
  );
});
