import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { testSeed } from '@/tests/support/emulator';

/**
 * The real emulator CLI as a child process (`node --import tsx`, so SIGKILL really kills it and a
 * stalled event loop there cannot stall the test runner). Kill what you start with `killHard`.
 */

const REPO = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO, 'emulator/start/cli.ts');

export interface RunningCli {
  child: ChildProcess;
  url: string;
}

/** The schemaless test seed as a file for `--seed`, written once per test file and removed at exit. */
let seedFile: string | null = null;
function testSeedFile(): string {
  if (seedFile) return seedFile;
  const dir = mkdtempSync(path.join(tmpdir(), 'emulator-seed-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(testSeed()));
  return seedFile;
}

export function startCli(extraArguments: readonly string[] = []): Promise<RunningCli> {
  const cliArguments = ['--import', 'tsx', CLI, '--port', '0', '--quiet', '--seed', testSeedFile(), ...extraArguments];
  const child = spawn(process.execPath, cliArguments, {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout?.off('data', onData);
        resolve({ child, url: match[1] as string });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code, signal) => reject(new Error(`emulator exited early (${code ?? signal}): ${output}`)));
  });
}

export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
