/**
 * The emulator in a process of its own for the live-query benchmark, so the client's heap and event
 * loop are measured alone: the default seed with every app schemaless (any entity name), a free
 * port, quiet. Stopped by its process group, never by name.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { schemalessDefaultSeed } from '../../emulator/seed/seed';
import { REPOSITORY_ROOT } from '../../emulator/start/cli';

export interface EmulatorProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'live-query-bench-'));
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(schemalessDefaultSeed()));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPOSITORY_ROOT, 'emulator', 'start', 'cli.ts'),
      '--port',
      '0',
      '--quiet',
      '--seed',
      seedFile,
    ],
    { cwd: REPOSITORY_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) resolve(match[0]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The emulator exited (${code}) before it listened:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
