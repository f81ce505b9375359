import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { compiledEmulatorCommand, compileEmulator } from '@/build-steps/emulator/compile-emulator';
import type { Seed } from '@/emulator/core/types';
import { parseArguments } from '@/emulator/start/cli';
import { startTestEmulator, testSeed } from '@/tests/support/emulator';

import { apiClient, type Json } from '../api';

const REPO = path.resolve(__dirname, '../../../..');
const SEED_PATH = path.join(REPO, 'emulator/seed/seed.json');
const baseSeed = (): Seed => JSON.parse(readFileSync(SEED_PATH, 'utf8')) as Seed;

describe('the seed', () => {
  it('loads from a path, with initial records per entity', async () => {
    const seed = testSeed();
    const app = seed.apps[0];
    if (!app) throw new Error('the default seed has no apps');
    app.entities = { Announcement: [{ id: 'launch', title: 'Soon' }, { title: 'Later' }] };
    const emulator = await startTestEmulator({ seed });
    try {
      const { body } = await apiClient(emulator)<Json[]>(
        'GET',
        `/apps/${app.id}/entities/Announcement?sort=created_date`,
      );
      expect(body.map((record) => record.title)).toEqual(['Soon', 'Later']);
      expect(body[0]).toMatchObject({ id: 'launch', created_by: null, created_date: expect.any(String) });
    } finally {
      await emulator.close();
    }
    const fromPath = await startTestEmulator({ seed: SEED_PATH });
    await fromPath.close();
  });

  it.each<[string, (seed: Seed) => void, RegExp]>([
    [
      'an unknown access mode',
      (seed) => Object.assign(seed.apps[0] ?? {}, { access: 'secret' }),
      /access must be one of/,
    ],
    [
      'a member without an account',
      (seed) => seed.apps[0]?.members.push({ email: 'ghost@example.com', role: 'user' }),
      /unknown account ghost@example.com/,
    ],
    [
      'a bad member role',
      (seed) => seed.apps[0]?.members.push({ email: 'user@example.com', role: 'owner' as 'user' }),
      /role must be/,
    ],
    [
      'a site origin that is not http(s)',
      (seed) => seed.apps[0]?.siteOrigins.push('ftp://x'),
      /not an http\(s\) origin/,
    ],
    [
      'two apps with one id',
      (seed) => seed.apps.push({ ...(seed.apps[0] as Seed['apps'][number]) }),
      /two apps share an id/,
    ],
    ['no apps', (seed) => seed.apps.splice(0), /at least one app/],
    [
      'a schemaless flag that is not a boolean',
      (seed) => Object.assign(seed.apps[0] ?? {}, { schemaless: 'yes' }),
      /apps\[0\]\.schemaless must be true or false/,
    ],
    [
      'a duplicate account e-mail',
      (seed) => seed.accounts.push({ ...(seed.accounts[0] as Seed['accounts'][number]), id: 'other' }),
      /share an e-mail/,
    ],
  ])('refuses %s with a clear message', async (_label, spoil, message) => {
    const seed = baseSeed();
    spoil(seed);
    await expect(startTestEmulator({ seed })).rejects.toThrow(message);
  });
});

describe('console output', () => {
  it('prints sent e-mails unless quiet', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const emulator = await startTestEmulator({ quiet: false });
    try {
      await apiClient(emulator)('POST', '/apps/coming-soon/integration-endpoints/Core/SendEmail', {
        json: { to: 'printed@example.com', subject: 'Printed', body: 'Body line' },
      });
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/e-mail to printed@example\.com: Printed\n {4}Body line/));
    } finally {
      await emulator.close();
      log.mockRestore();
    }
  });
});

describe('CLI arguments', () => {
  it('parses every option, with repeated site origins', () => {
    expect(
      parseArguments([
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--data-dir',
        '.emulator-data',
        '--seed',
        'my-seed.json',
        '--latency',
        '50',
        '--site-origin',
        'http://a.test',
        '--site-origin',
        'http://b.test',
        '--body-limit',
        '1024',
        '--quiet',
      ]),
    ).toEqual({
      port: 0,
      host: '0.0.0.0',
      dataDir: '.emulator-data',
      seed: 'my-seed.json',
      latencyMs: 50,
      siteOrigins: ['http://a.test', 'http://b.test'],
      bodyLimitBytes: 1024,
      quiet: true,
      projectDir: REPO,
    });
    expect(parseArguments([])).toEqual({ projectDir: REPO });
    expect(parseArguments(['--port=3001', '--project=base44-test', '--site-origin=http://c.test'])).toEqual({
      port: 3001,
      projectDir: path.join(process.cwd(), 'base44-test'),
      siteOrigins: ['http://c.test'],
    });
    expect(parseArguments(['--help'])).toBe('help');
  });

  it.each([
    [['--port', 'abc'], /--port needs an integer/],
    [['--port', '70000'], /--port needs an integer/],
    [['--port=-1'], /--port needs an integer/],
    [['--latency'], /--latency needs a value/],
    [['--data-dir', '--quiet'], /--data-dir needs a value/],
    [['--project='], /--project needs a value/],
    [['--verbose'], /Unknown option '--verbose'$/],
    [['extra'], /Unexpected argument 'extra'/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(message);
  });
});

/** Node's arguments for the CLI: through tsx, or compiled as `npm start` and `npm run emulator` run it. */
const CLI_COMMANDS: [string, (cliArguments: string[]) => Promise<string[]>][] = [
  [
    'through tsx',
    async (cliArguments) => ['--import', 'tsx', path.join(REPO, 'emulator/start/cli.ts'), ...cliArguments],
  ],
  ['compiled', (cliArguments) => compiledEmulatorCommand(cliArguments)],
];

describe.each(CLI_COMMANDS)('the CLI process %s', (_how, command) => {
  it('prints URLs and seeded accounts, runs TS functions on Deno, and stops cleanly on SIGTERM', async () => {
    // No --seed: the default seed is found beside its module (compiled, too: see compile-emulator.ts).
    const child = spawn(process.execPath, await command(['--port', '0', '--quiet']), {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)[\s\S]*outsider@example\.com/.exec(output);
        if (match) resolve(match[1] as string);
      });
      void exited.then(() => reject(new Error(`the CLI exited early:\n${output}`)));
    });
    expect(output).toContain(
      'admin@example.com / emulator-password (coming-soon: admin, members-only: admin, invite-only: admin)',
    );
    expect(output).toContain('service token: service-token-members-only');
    expect(output).toContain('Entities (base44/entities): Todo');

    const response = await fetch(`${url}/api/apps/coming-soon/functions/hello`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'tsx' }),
    });
    expect(await response.json()).toMatchObject({ message: 'Hello, tsx!' });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('the compiled emulator', () => {
  it('is one scope: calls between its modules are direct, not through CommonJS export getters', async () => {
    const compiled = readFileSync(await compileEmulator(), 'utf8');
    // Through tsx each module's exports are getters (compile-emulator.ts says why that is slow); in the
    // bundle only the entry has CommonJS exports, for the process that loads it.
    expect(compiled.match(/__toCommonJS\(/g)).toHaveLength(1);
    expect(compiled).toMatch(/module\.exports = __toCommonJS\(compiled_exports\)/);
  });
});
