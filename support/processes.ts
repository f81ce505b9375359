/**
 * Servers that tests and tools start as child processes (nginx, wrangler, `base44 dev`, WebKitWebDriver):
 * a free port to give them, waiting until they answer, and stopping them with everything they started.
 * Each runs in its own process group (`detached: true`), so stopping the group also stops its
 * children (workerd under wrangler, nginx's workers) and never anything else.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Sends `signal` to the child's whole process group (it must have been spawned detached). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** SIGTERM to the group, SIGKILL if it has not exited after `graceMs`, and SIGKILL to what is left. */
export async function stopGroup(child: ChildProcess, graceMs = 5_000): Promise<void> {
  signalGroup(child, 'SIGTERM');
  if (!(await waitForExit(child, graceMs))) {
    signalGroup(child, 'SIGKILL');
    await waitForExit(child, graceMs);
  }
  signalGroup(child, 'SIGKILL');
}

/**
 * Resolves once `url` answers any HTTP status; rejects when the child exits first or `timeoutMs`
 * passes, with `describe()` (the child's output so far) in the message.
 */
export async function waitForHttp(
  url: string,
  child: ChildProcess,
  options: { timeoutMs: number; what: string; describe: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${options.what} exited (${child.signalCode ?? child.exitCode}) before answering:\n${options.describe()}`,
      );
    }
    try {
      await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${options.what} did not answer ${url} within ${options.timeoutMs} ms:\n${options.describe()}`);
}
