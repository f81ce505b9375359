import { open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Crash-safe persistence. Every file is written to a temp file in the same folder, fsynced, then
 * renamed over the target and the folder fsynced: after a crash the target holds either the old or
 * the new complete content, never a torn one. Leftover temp files are debris from a crash and are
 * ignored (and removed) on load. Used for uploaded files; records live in the database.
 */

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
    names
      .filter((name) => name.endsWith(TEMP_SUFFIX))
      .map((name) => unlink(path.join(dir, name)).catch(() => undefined)),
  );
}
