/**
 * A test host that runs as a child process of its own (nginx, wrangler): it counts as started once it
 * answers on 127.0.0.1; stopping it stops its whole process group (nginx's workers, workerd) and
 * removes its scratch folder (config, pid, logs, state). When it never answers, it is stopped and the
 * error carries what it printed.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

import { stopGroup, waitForHttp } from '../processes';
import type { RunningHost } from './types';

export async function processHost(options: {
  name: string;
  child: ChildProcess;
  port: number;
  scratch: string;
  timeoutMs: number;
  /** What the process printed or logged so far, for the error when it never answers. */
  describe: () => string;
}): Promise<RunningHost> {
  const { name, child, port, scratch } = options;
  const stop = async () => {
    await stopGroup(child);
    rmSync(scratch, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`, child, { timeoutMs: options.timeoutMs, what: name, describe: options.describe });
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, url, stop };
}
