import { closeSync, fsyncSync, linkSync, lstatSync, openSync, unlinkSync, type Stats } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Whose database is it? The emulator opens only a database it created itself: a regular file (no
 * symbolic link, for it or its journal files) carrying the emulator's `application_id` and schema
 * version. A foreign file is inspected through a read-only connection and refused untouched. A new
 * database is built under a temporary name and linked into place complete, so a crash never leaves
 * a half-made file that would later look foreign. While open, the file is held with SQLite's
 * exclusive lock, which the OS releases when the process dies: a second emulator on the same data
 * dir stops with a clear message instead of overwriting the first one's state.
 */

/** "B44E" in the database header: marks a file as made by this emulator. */
export const APPLICATION_ID = 0x42343445;
/** Version 3 (this one): every account, code, ticket and ended session is a row of its own (migrations.ts). */
export const SCHEMA_VERSION = 3;

const SIDE_FILES = ['-wal', '-shm', '-journal'];

const SCHEMA = `
  CREATE TABLE records (
    seq INTEGER PRIMARY KEY,
    app TEXT NOT NULL,
    entity TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (app, entity, id)
  );
  CREATE TABLE state (name TEXT PRIMARY KEY, body TEXT NOT NULL);
`;

export const ENTRIES = `
  CREATE TABLE entries (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    app TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (kind, app, id)
  );
`;

/**
 * `absent`: no file yet; `current`: ours, this schema; `version 1`: ours, from before the marker;
 * `version 2`: ours, with the small shared state still inside the `core` and `sessions` rows.
 */
export type DatabaseIdentity = 'absent' | 'current' | 'version 1' | 'version 2';

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function refuseNonFile(file: string, stats: Stats | null): void {
  if (stats?.isSymbolicLink())
    throw new Error(
      `${file} is a symbolic link; the emulator opens only its own database file in the data dir. Remove the link to start.`,
    );
  if (stats && !stats.isFile()) throw new Error(`${file} is not a regular file; the emulator cannot use it.`);
}

function notSqlite(file: string): Error {
  return new Error(`${file} is not a database of the emulator (no SQLite header). Move it away to start.`);
}

function notOurs(file: string, why: string): Error {
  return new Error(
    `${file} was not created by the emulator (${why}); it is left untouched. Move it away or choose another --data-dir.`,
  );
}

function busy(error: unknown, dataDir: string, file: string): Error {
  const code = (error as { code?: string }).code;
  if (code === 'SQLITE_NOTADB') return notSqlite(file);
  if (code !== 'SQLITE_BUSY') return error as Error;
  return new Error(
    `The data dir ${dataDir} is already in use by another emulator process (its database is locked). Stop that emulator or choose another --data-dir.`,
  );
}

function identityOf(db: Database.Database, file: string): DatabaseIdentity {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === APPLICATION_ID) {
    if (version === 2) return 'version 2';
    if (version !== SCHEMA_VERSION)
      throw new Error(
        `The emulator database ${file} has schema version ${version}; this emulator reads version ${SCHEMA_VERSION}.`,
      );
    return 'current';
  }
  if (applicationId !== 0) throw notOurs(file, `application id ${applicationId}`);
  // Version 1 had no marker: it is recognised by its exact tables and a core row of its own shape.
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
  )
    .map((row) => row.name)
    .join(',');
  if (version !== 1 || tables !== 'records,state') throw notOurs(file, 'no emulator marker');
  const core = db
    .prepare(
      "SELECT 1 FROM state WHERE name = 'core' AND json_valid(body) AND json_extract(body, '$.version') = 1 AND json_type(body, '$.token_secret') = 'text'",
    )
    .get();
  if (!core) throw notOurs(file, 'no emulator state');
  return 'version 1';
}

/**
 * Looks at the database file without changing it: through `db` when it is already open (and
 * locked), else through a read-only connection. Throws for anything that is not the emulator's.
 */
export function inspectDatabase(file: string, dataDir: string, db?: Database.Database): DatabaseIdentity {
  const stats = lstatOrNull(file);
  refuseNonFile(file, stats);
  for (const suffix of SIDE_FILES) refuseNonFile(file + suffix, lstatOrNull(file + suffix));
  if (stats === null) {
    if (lstatOrNull(`${file}-wal`) !== null)
      throw new Error(`${file}-wal exists without its database ${file}; move it away to start.`);
    return 'absent';
  }
  // Never opened with plain fs calls: closing any descriptor of the file would drop SQLite's lock on it.
  if (stats.size === 0) throw notSqlite(file);
  if (db) return identityOf(db, file);
  let readOnly: Database.Database | null = null;
  try {
    readOnly = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    return identityOf(readOnly, file);
  } catch (error) {
    throw busy(error, dataDir, file);
  } finally {
    readOnly?.close();
  }
}

/** Builds a new, empty database under a temporary name and links it into place complete. */
export function createDatabaseFile(file: string): void {
  const temp = `${file}.${process.pid}.new`;
  const db = new Database(temp);
  try {
    db.pragma('journal_mode = WAL');
    db.transaction(() => {
      db.exec(SCHEMA + ENTRIES);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  } finally {
    db.close();
  }
  try {
    linkSync(temp, file);
  } catch (error) {
    // Another process made it in the meantime: the lock and the second look decide.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  const dir = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * Opens the database holding SQLite's exclusive lock until close (set before the first access, so
 * the WAL needs no shared memory and no other process can read or write). Takes the lock without
 * writing anything, so a foreign file swapped in meanwhile is still refused untouched.
 */
export function openLocked(file: string, dataDir: string): Database.Database {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    return db;
  } catch (error) {
    db.close();
    throw busy(error, dataDir, file);
  }
}

/** Journal settings, applied once the file is known to be the emulator's. */
export function configure(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
}
