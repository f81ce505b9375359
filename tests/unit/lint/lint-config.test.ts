/**
 * @jest-environment node
 */
/**
 * The checks `npm run lint` and `npm run typecheck` promise, shown to fail where they must: an
 * import cycle (through types too) and a lazy chunk imported eagerly (dependency-cruiser with
 * .dependency-cruiser.cjs), a function over 80 lines (ESLint with eslint.config.mjs), and an
 * editor message the parser accepts but nothing handles (TypeScript on the real agent, with one
 * message type added to the parsed union), and a build setting read past its owner (ESLint).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * Runs dependency-cruiser with the project's configuration over `files`, written to a scratch
 * folder, and returns each violation as "rule: from -> to" (file names only).
 */
function importViolations(files: Record<string, string>): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lint-fixture-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const result = spawnSync(
      path.join(ROOT, 'node_modules/.bin/depcruise'),
      ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', dir],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const report = JSON.parse(result.stdout) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[] };
    };
    return report.summary.violations
      .map(({ rule, from, to }) => `${rule.name}: ${path.basename(from)} -> ${path.basename(to)}`)
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('import rules (dependency-cruiser)', () => {
  it('fails on cycles made of type-only imports and on lazy chunks imported eagerly, and only there', () => {
    const violations = importViolations({
      // Two files that need each other's types: a cycle import/no-cycle lets through.
      'a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
      'b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
      // One way only: fine.
      'c.ts': "import type { A } from './a';\nexport type C = { a: A };\n",
      // A chunk loaded on first use, imported eagerly by one file and properly by another.
      'seldom.lazy.ts': 'export type Shape = { id: string };\nexport const seldom = () => 1;\n',
      'eager.ts': "export { seldom } from './seldom.lazy';\n",
      'on-demand.ts':
        "import type { Shape } from './seldom.lazy';\n" +
        "export const load = async (): Promise<Shape | number> => (await import('./seldom.lazy')).seldom();\n",
    });
    expect(violations).toEqual([
      'lazy-chunk-door: eager.ts -> seldom.lazy.ts',
      // A cycle is reported once, from its first file.
      'no-circular: a.ts -> b.ts',
    ]);
  }, 60_000);
});

/**
 * Lints `cases` (file path -> code, none of them written to disk) with the project's ESLint
 * configuration and returns the rule ids reported for each. ESLint loads its configuration with a
 * dynamic import, which Jest's module sandbox does not offer, so this runs in a plain Node child.
 */
function lintRules(cases: Record<string, string>): Record<string, string[]> {
  const script = `
    import { ESLint } from 'eslint';
    const cases = JSON.parse(process.argv[1]);
    const eslint = new ESLint();
    const found = {};
    for (const [file, code] of Object.entries(cases)) {
      const [result] = await eslint.lintText(code, { filePath: file });
      found[file] = result.messages.map((message) => message.ruleId);
    }
    console.log(JSON.stringify(found));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as Record<string, string[]>;
}

/** A function with `lines` code lines (its first and last line included), plus comments and blank lines. */
const functionOf = (lines: number) =>
  [
    'export function long(): number {',
    '  // Comments and blank lines do not count.',
    '',
    '  let total = 0;',
    ...Array.from({ length: lines - 4 }, (_unused, index) => `  total += ${index};`),
    '  return total;',
    '}',
  ].join('\n') + '\n';
const SETTING_READS = 'export const values = [process.env.NEXT_PUBLIC_EDITOR_ORIGINS, process.env.NODE_ENV];\n';
const LONG_FUNCTION_PLACES = ['lib/frame/fixture.ts', 'components/Fixture.tsx', 'app/fixture.ts', 'deploy/fixture.ts'];

describe('ESLint', () => {
  let rules: Record<string, string[]>;
  beforeAll(() => {
    // One ESLint run for every case (loading the configuration is most of its cost).
    rules = lintRules({
      ...Object.fromEntries(LONG_FUNCTION_PLACES.map((file) => [file, functionOf(81)])),
      'lib/sdk/at-the-limit.ts': functionOf(80),
      'tests/unit/long.test.ts': functionOf(81),
      'lib/frame/settings.ts': SETTING_READS,
      'build-steps/settings.ts': SETTING_READS,
      'lib/config/env.ts': SETTING_READS,
      'tests/unit/settings.test.ts': SETTING_READS,
    });
  }, 60_000);

  it('fails on a function over 80 lines in lib/, components/, app/ and deploy/, not in tests', () => {
    for (const file of LONG_FUNCTION_PLACES) expect(rules[file]).toEqual(['max-lines-per-function']);
    expect(rules['lib/sdk/at-the-limit.ts']).toEqual([]);
    expect(rules['tests/unit/long.test.ts']).toEqual([]);
  });

  it('fails where a build setting is read past its owner, lib/config/env.ts', () => {
    const twice = ['no-restricted-syntax', 'no-restricted-syntax'];
    expect(rules['lib/frame/settings.ts']).toEqual(twice);
    expect(rules['build-steps/settings.ts']).toEqual(twice);
    expect(rules['lib/config/env.ts']).toEqual([]);
    expect(rules['tests/unit/settings.test.ts']).toEqual([]);
  });
});

describe('editor messages (TypeScript)', () => {
  const AGENT = path.join(ROOT, 'lib/frame/visual-edit/agent.ts');
  const INCOMING = path.join(ROOT, 'lib/frame/messages/incoming.ts');
  const UNION = 'export type IncomingMessage =\n';

  /** Type-checks the real agent, with `edit` applied to the parser's message types. */
  function agentErrors(edit: (incoming: string) => string): string[] {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (!config) throw new Error('tsconfig.json did not parse');
    const options = { ...config.options, incremental: false, tsBuildInfoFile: undefined };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language, ...rest) => {
      if (path.resolve(fileName) !== INCOMING) return getSourceFile(fileName, language, ...rest);
      return ts.createSourceFile(fileName, edit(ts.sys.readFile(fileName) ?? ''), language);
    };
    const program = ts.createProgram({ rootNames: [AGENT], options, host });
    return ts
      .getPreEmitDiagnostics(program, program.getSourceFile(AGENT))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  }

  it('fails to compile the agent when the parser accepts a message that nothing handles', () => {
    const added = agentErrors((incoming) => {
      expect(incoming).toContain(UNION);
      return incoming.replace(UNION, `${UNION}  | { type: 'lint-fixture-message' }\n`);
    });
    expect(added.join('\n')).toContain('lint-fixture-message');
    expect(agentErrors((incoming) => incoming)).toEqual([]);
  }, 60_000);
});
