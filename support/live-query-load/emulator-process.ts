/**
 * The emulator in a process of its own for the live-query benchmark, so the client's heap and event
 * loop are measured alone: a project folder declaring the benchmark's entities (as an app declares
 * its own, so the query planner indexes their fields), the default seed with every app schemaless
 * (other entity names store any field), a free port, quiet. Stopped by its process group, never by
 * name.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compiledEmulatorCommand } from '../../build-steps/emulator/compile-emulator';
import { schemalessDefaultSeed } from '../../emulator/seed/seed';
import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import type { BenchEntity } from './records';

/** A server in a process of its own, measured from outside (the emulator, or the bare HTTP floor). */
export interface MeasuredServer {
  url: string;
  /** CPU time the emulator's process has used so far (user + system, ms); NaN where /proc is missing. */
  cpuMs(): number;
  /** The emulator's resident set size now (bytes); NaN where /proc is missing. */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** The kernel's clock ticks per second, for /proc/<pid>/stat. */
function clockTicks(): number {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(answer.stdout.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}

/** utime + stime of a process from /proc (fields 14 and 15, after the command in parentheses), in ticks. */
function processCpuMsInTicks(pid: number, ticks: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
}

/**
 * The time every thread of a process has spent on a CPU, in nanoseconds (the first field of each
 * /proc/<pid>/task/<tid>/schedstat); undefined where the kernel keeps no such figure. A thread that
 * ended takes its time with it: Node's threads (V8's workers, libuv's pool) last as long as the process.
 */
function threadsCpuNs(pid: number): number | undefined {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    if (!Number.isFinite(ns)) return undefined;
    total += ns;
  }
  return total;
}

/**
 * CPU time a process has used so far (ms). /proc/<pid>/stat counts it in the kernel's ticks (10 ms
 * here), coarse against a floor of 0.2 ms a request measured over turns of 500 requests (about ±10%
 * a turn); schedstat counts nanoseconds. Both sum user and system time of all threads.
 */
function processCpuMs(pid: number | undefined, ticks: number): number {
  if (pid === undefined) return Number.NaN;
  try {
    const ns = threadsCpuNs(pid);
    return ns === undefined || ns === 0 ? processCpuMsInTicks(pid, ticks) : ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** VmRSS of a process from /proc (kB there). */
function processRssBytes(pid: number | undefined): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export async function startEmulatorProcess(entities: readonly BenchEntity[]): Promise<MeasuredServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'live-query-bench-'));
  const seedFile = path.join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(schemalessDefaultSeed()));
  const project = path.join(dir, 'project');
  mkdirSync(path.join(project, 'base44', 'entities'), { recursive: true });
  for (const entity of entities)
    writeFileSync(path.join(project, 'base44', 'entities', `${entity.name}.jsonc`), JSON.stringify(entity));
  // Compiled, as `npm start` and `npm run emulator` run it (build-steps/emulator/compile-emulator.ts).
  const args = await compiledEmulatorCommand(['--project', project, '--port', '0', '--quiet', '--seed', seedFile]);
  return startMeasuredServer('The emulator', args, () => rmSync(dir, { recursive: true, force: true }));
}

/**
 * A Node server in a process (and process group) of its own that prints the URL it listens on:
 * answers that URL, the process's CPU time and memory, and a stop that ends the group and then
 * runs `cleanUp`.
 */
export async function startMeasuredServer(
  name: string,
  nodeArgs: string[],
  cleanUp: () => void = () => undefined,
): Promise<MeasuredServer> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: REPOSITORY_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) resolve(match[0]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ticks = clockTicks();
  let stopping: Promise<void> | undefined;
  return {
    url,
    cpuMs: () => processCpuMs(child.pid, ticks),
    rssBytes: () => processRssBytes(child.pid),
    async stop() {
      // Once: a second stop must not signal a group that is gone (or whose id was reused).
      stopping ??= (async () => {
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
          process.kill(-child.pid, 'SIGTERM');
        await exited;
        cleanUp();
      })();
      await stopping;
    },
  };
}
