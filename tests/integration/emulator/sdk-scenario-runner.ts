import { spawn } from 'node:child_process';
import path from 'node:path';

/** Runs a fixture scenario (the reference SDK, in its own Node process) and returns its step report. */

export interface StepResult {
  ok: boolean;
  value?: unknown;
  message?: string;
  status?: number;
  code?: string;
}

export async function runSdkScenario(fixture: string, emulatorUrl: string): Promise<Record<string, StepResult>> {
  const repo = path.resolve(__dirname, '../../..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures', fixture)], {
    cwd: repo,
    env: { ...process.env, EMULATOR_URL: emulatorUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = output.split('\n').find((entry) => entry.startsWith('SCENARIO_RESULT '));
  if (code !== 0 || !line) throw new Error(`the SDK scenario ${fixture} failed (exit ${code}):\n${output}`);
  return JSON.parse(line.slice('SCENARIO_RESULT '.length)) as Record<string, StepResult>;
}

/** The value of a step that must have succeeded (the failure message shows in the diff otherwise). */
export function stepValue<T>(results: Record<string, StepResult>, step: string): T {
  const result = results[step];
  expect({ step, ok: result?.ok, message: result?.message }).toEqual({ step, ok: true, message: undefined });
  return result?.value as T;
}
