/**
 * The emulator's layer rules are ESLint rules: each is shown to fire on a file that breaks it and to
 * stay quiet on one that keeps it, so a change to eslint.config.mjs cannot silently drop one.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

/**
 * The rule ids ESLint reports for `code` placed at `file` (relative to the repository). ESLint runs
 * as its own process: its config is an ES module, which Jest's module sandbox cannot import.
 */
async function firedRules(file: string, code: string): Promise<string[]> {
  const run = spawnSync(process.execPath, [ESLINT, '--format', 'json', '--stdin', '--stdin-filename', file], {
    cwd: ROOT,
    input: code,
    encoding: 'utf8',
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`eslint failed: ${run.stderr}`);
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

jest.setTimeout(60_000);

describe('the emulator layer rules', () => {
  it('keeps HttpError out of the layers below routes/', async () => {
    const code = "import { HttpError } from '../http/errors';\n\nexport const failure = HttpError;\n";
    expect(await firedRules('emulator/store/probe.ts', code)).toContain('no-restricted-imports');
    expect(await firedRules('emulator/routes/probe.ts', code)).not.toContain('no-restricted-imports');
  });

  it('lets the layers below routes/ raise domain errors', async () => {
    const code = "import { invalidInput } from '../core/errors';\n\nexport const failure = invalidInput('x');\n";
    expect(await firedRules('emulator/store/probe.ts', code)).toEqual([]);
  });
});
