import path from 'node:path';
import { parseArgs } from 'node:util';

import type { EmulatorOptions, Seed } from '../core/types';
import { DEFAULT_PORT, startEmulator } from './server';

/**
 * `npm run emulator -- [--project DIR] [--port N] [--host H] [--data-dir D] [--seed FILE]
 *  [--latency MS] [--site-origin ORIGIN ...] [--body-limit BYTES] [--quiet]`
 * Starts the emulator and prints its URLs, apps, entities and seeded accounts.
 */

/** The repository: the default project folder (it holds base44/). */
export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

const USAGE = `Usage: npm run emulator -- [options]   (or: npx tsx emulator/start/cli.ts [options])
  --project DIR         Base44 project folder holding base44/ (default: this repository)
  --port N              port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H              interface to bind (default 127.0.0.1)
  --data-dir D          persist data in folder D (default: memory only)
  --seed FILE           seed JSON file (default emulator/seed/seed.json)
  --latency MS          delay every HTTP response by MS milliseconds
  --site-origin ORIGIN  extra origin allowed for CORS and login redirects (repeatable)
  --body-limit BYTES    largest accepted request body (default 10 MiB)
  --quiet               do not print e-mails and request problems
  --help                show this help
Options take their value as "--port 3001" or "--port=3001".`;

class UsageError extends Error {}

function integer(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} needs an integer from ${min} to ${max}`);
  }
  return Number(value);
}

function text(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // "--data-dir --quiet" is a forgotten value, not a folder named "--quiet".
  if (value === '' || value.startsWith('--')) throw new UsageError(`--${flag} needs a value`);
  return value;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  quiet: { type: 'boolean' },
  project: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  seed: { type: 'string' },
  latency: { type: 'string' },
  'body-limit': { type: 'string' },
  'site-origin': { type: 'string', multiple: true },
} as const;

/** The options of a command line; `projectDir` defaults to the repository. */
export function parseArguments(argv: readonly string[]): EmulatorOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    // parseArgs names a flag whose value is missing (or looks like another flag) in its message.
    const message = (error as Error).message;
    const flag = /^Option '(--[\w-]+)/.exec(message)?.[1];
    throw new UsageError(flag ? `${flag} needs a value` : message.replace(/\. To specify a positional.*$/s, ''));
  }
  if (values.help) return 'help';
  const options: EmulatorOptions = { projectDir: path.resolve(text('project', values.project) ?? REPOSITORY_ROOT) };
  const set = <K extends keyof EmulatorOptions>(key: K, value: EmulatorOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  if (values.quiet) options.quiet = true;
  set('port', integer('port', values.port, 0, 65_535));
  set('host', text('host', values.host));
  set('dataDir', text('data-dir', values['data-dir']));
  set('seed', text('seed', values.seed));
  set('latencyMs', integer('latency', values.latency, 0, 60_000));
  set('bodyLimitBytes', integer('body-limit', values['body-limit'], 1, 1024 * 1024 * 1024));
  const origins = (values['site-origin'] ?? []).map((origin) => text('site-origin', origin) as string);
  if (origins.length > 0) options.siteOrigins = origins;
  return options;
}

export function describeSeed(seed: Seed, url: string, entityNames: readonly string[] = []): string {
  const lines = [
    `Local platform emulator listening on ${url}`,
    `  API:    ${url}/api`,
    `  Login:  ${url}/login?app_id=<app>&from_url=<address>`,
    `  Outbox: ${url}/api/_emulator/outbox`,
    '',
    'Apps:',
  ];
  for (const app of seed.apps) {
    lines.push(
      `  ${app.id} (${app.access}) service token: ${app.serviceToken}; site origins: ${app.siteOrigins.join(', ')}`,
    );
  }
  if (entityNames.length > 0) lines.push('', `Entities (base44/entities): ${entityNames.join(', ')}`);
  lines.push('', 'Accounts:');
  for (const account of seed.accounts) {
    const roles = seed.apps
      .map((app) => ({ app: app.id, member: app.members.find((member) => member.email === account.email) }))
      .filter((entry) => entry.member)
      .map((entry) => `${entry.app}: ${entry.member?.role}`);
    lines.push(
      `  ${account.email} / ${account.password} (${roles.length > 0 ? roles.join(', ') : 'not registered in any app'})`,
    );
  }
  return lines.join('\n');
}

/** The CLI on `cliArguments`: starts the emulator, prints it, stops it on SIGINT and SIGTERM. */
export async function runEmulatorCli(cliArguments: readonly string[]): Promise<void> {
  let parsed: EmulatorOptions | 'help';
  try {
    parsed = parseArguments(cliArguments);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed === 'help') {
    console.log(USAGE);
    return;
  }
  const emulator = await startEmulator(parsed);
  console.log(describeSeed(emulator.seed, emulator.url, emulator.entityNames()));
  const functions = await emulator.functionNames().catch((error: unknown) => {
    console.error(`Functions: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  if (functions.length > 0) console.log(`\nFunctions (base44/functions, run on Deno): ${functions.join(', ')}`);
  const stop = (signal: string) => {
    console.log(`\n${signal} received, stopping the emulator...`);
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  runEmulatorCli(process.argv.slice(2)).catch((error: unknown) => {
    console.error('The emulator could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
