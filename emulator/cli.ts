import { loadSeed } from './seed';
import { DEFAULT_PORT, startEmulator } from './server';
import type { EmulatorOptions, Seed } from './types';

/**
 * `tsx emulator/cli.ts [--port N] [--host H] [--data-dir D] [--seed FILE] [--latency MS]
 *  [--site-origin ORIGIN ...] [--body-limit BYTES] [--quiet]`
 * Starts the emulator and prints its URLs, apps and seeded accounts.
 */

const USAGE = `Usage: tsx emulator/cli.ts [options]
  --port N              port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H              interface to bind (default 127.0.0.1)
  --data-dir D          persist data in folder D (default: memory only)
  --seed FILE           seed JSON file (default emulator/seed.json)
  --latency MS          delay every HTTP response by MS milliseconds
  --site-origin ORIGIN  extra origin allowed for CORS and login redirects (repeatable)
  --body-limit BYTES    largest accepted request body (default 10 MiB)
  --quiet               do not print e-mails and request problems
  --help                show this help`;

class UsageError extends Error {}

function integer(flag: string, value: string | undefined, min: number, max: number): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} needs an integer from ${min} to ${max}`);
  }
  return Number(value);
}

function text(flag: string, value: string | undefined): string {
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
  return value;
}

export function parseArguments(argv: readonly string[]): EmulatorOptions | 'help' {
  const options: EmulatorOptions = {};
  const origins: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index] as string;
    const value = argv[index + 1];
    const consume = () => {
      index += 1;
    };
    switch (flag) {
      case '--help':
      case '-h':
        return 'help';
      case '--quiet':
        options.quiet = true;
        break;
      case '--port':
        options.port = integer(flag, value, 0, 65_535);
        consume();
        break;
      case '--host':
        options.host = text(flag, value);
        consume();
        break;
      case '--data-dir':
        options.dataDir = text(flag, value);
        consume();
        break;
      case '--seed':
        options.seed = text(flag, value);
        consume();
        break;
      case '--latency':
        options.latencyMs = integer(flag, value, 0, 60_000);
        consume();
        break;
      case '--body-limit':
        options.bodyLimitBytes = integer(flag, value, 1, 1024 * 1024 * 1024);
        consume();
        break;
      case '--site-origin':
        origins.push(text(flag, value));
        consume();
        break;
      default:
        throw new UsageError(`Unknown option ${flag}`);
    }
  }
  if (origins.length > 0) options.siteOrigins = origins;
  return options;
}

export function describeSeed(seed: Seed, url: string): string {
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

async function main(): Promise<void> {
  let parsed: EmulatorOptions | 'help';
  try {
    parsed = parseArguments(process.argv.slice(2));
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
  const { seed } = await loadSeed(parsed.seed);
  console.log(describeSeed(seed, emulator.url));
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
  main().catch((error: unknown) => {
    console.error('The emulator could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
