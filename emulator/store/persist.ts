import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Crash-safe persistence. Every file is written to a temp file in the same folder, fsynced, then
 * renamed over the target and the folder fsynced: after a crash the target holds either the old or
 * the new complete content, never a torn one. Leftover temp files are debris from a crash and are
 * ignored (and removed) on load.
 */

export const SNAPSHOT_FILE = 'store.json';
const TEMP_SUFFIX = '.tmp';
let tempCounter = 0;

export async function writeFileDurably(dir: string, name: string, data: string | Buffer): Promise<void> {
  tempCounter += 1;
  const target = path.join(dir, name);
  const temp = path.join(dir, `${name}.${process.pid}.${tempCounter}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

/** Makes the rename itself durable: without it a power loss can forget the new directory entry. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeTempDebris(dir: string): Promise<void> {
  const names = await readdir(dir);
  await Promise.all(
    names.filter((name) => name.endsWith(TEMP_SUFFIX)).map((name) => unlink(path.join(dir, name)).catch(() => undefined)),
  );
}

/** Reads the snapshot, or null when the folder has none yet. A corrupt snapshot stops the start. */
export async function loadSnapshot(dir: string): Promise<unknown> {
  await mkdir(dir, { recursive: true });
  await removeTempDebris(dir);
  let text: string;
  try {
    text = await readFile(path.join(dir, SNAPSHOT_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Atomic renames mean this only happens if something else edited the file; refuse rather than
    // silently starting empty and overwriting the user's data on the next write.
    throw new Error(
      `The emulator data file ${path.join(dir, SNAPSHOT_FILE)} is not valid JSON (${(error as Error).message}). ` +
        'Fix or remove it to start.',
    );
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Group commit: every caller of `commit()` gets a promise that settles once a snapshot taken after
 * its call is durable. Writes never overlap; callers arriving during a write share the next one, so
 * a burst of N writes costs about two fsyncs instead of N.
 */
export class SnapshotWriter {
  private chain: Promise<void> = Promise.resolve();
  private next: Deferred | null = null;

  constructor(
    private readonly dir: string,
    private readonly serialize: () => string,
  ) {}

  commit(): Promise<void> {
    if (this.next) return this.next.promise;
    const waiting = deferred();
    this.next = waiting;
    this.chain = this.chain.then(async () => {
      // From here on, new commits must wait for a later snapshot: this one may already be serialized.
      this.next = null;
      try {
        await writeFileDurably(this.dir, SNAPSHOT_FILE, this.serialize());
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
    });
    return waiting.promise;
  }

  /** Settles when every commit requested so far has been attempted. */
  async idle(): Promise<void> {
    await this.chain;
  }
}
