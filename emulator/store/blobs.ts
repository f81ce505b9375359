import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { removeTempDebris, writeFileDurably } from './persist';

/** Bytes of uploaded files. Metadata lives in the store; bytes live here, written before the metadata. */
export interface BlobStorage {
  put(id: string, bytes: Buffer): Promise<void>;
  get(id: string): Promise<Buffer | null>;
}

export function memoryBlobs(): BlobStorage {
  const blobs = new Map<string, Buffer>();
  return {
    async put(id, bytes) {
      blobs.set(id, bytes);
    },
    async get(id) {
      return blobs.get(id) ?? null;
    },
  };
}

const SAFE_ID = /^[a-f0-9]{24}$/;

export async function diskBlobs(dataDir: string): Promise<BlobStorage> {
  const dir = path.join(dataDir, 'files');
  await mkdir(dir, { recursive: true });
  await removeTempDebris(dir);
  return {
    async put(id, bytes) {
      if (!SAFE_ID.test(id)) throw new Error(`Refusing to store a file under the unsafe id "${id}"`);
      await writeFileDurably(dir, id, bytes);
    },
    async get(id) {
      if (!SAFE_ID.test(id)) return null;
      try {
        return await readFile(path.join(dir, id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
