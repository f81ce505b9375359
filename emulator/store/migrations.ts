import type Database from 'better-sqlite3';

import { APPLICATION_ID, ENTRIES } from './database-file';

/**
 * Older layouts of the emulator's own database, moved to the current one on open. Each step is one
 * transaction that ends by setting the version it reached, so a crash between two steps leaves a
 * database the next start recognises and continues from.
 */

/**
 * Version 1 kept the outbox, files, conversations and page visits inside a few JSON rows, rewritten
 * whole on every change. They move to one row per entry, and the file gets the marker (version 2).
 */
function migrateVersion1(db: Database.Database): void {
  db.transaction(() => {
    db.exec(ENTRIES);
    db.exec(`
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'outbox', '', coalesce(json_extract(each.value, '$.id'), 'mail-' || each.key), each.value
        FROM state, json_each(state.body) AS each WHERE state.name = 'outbox' ORDER BY each.key;
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'file', '', each.key, each.value
        FROM state, json_each(state.body, '$.files') AS each WHERE state.name = 'core';
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'conversation', substr(state.name, 5), each.key, each.value
        FROM state, json_each(state.body, '$.conversations') AS each WHERE state.name LIKE 'app:%';
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'page_visit', substr(state.name, 5), coalesce(json_extract(each.value, '$.id'), 'visit-' || each.key), each.value
        FROM state, json_each(state.body, '$.page_visits') AS each WHERE state.name LIKE 'app:%'
        ORDER BY state.name, each.key;
      UPDATE state SET body = json_remove(body, '$.files') WHERE name = 'core';
      UPDATE state SET body = json_remove(body, '$.conversations', '$.page_visits') WHERE name LIKE 'app:%';
      DELETE FROM state WHERE name = 'outbox';
    `);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma('user_version = 2');
  })();
}

/**
 * Version 2 kept the accounts, codes and tickets inside the `core` row and the ended sessions inside
 * the `sessions` row, so every commit re-serialized all of them. Each becomes a row of its own
 * (version 3); `core` keeps only the token secret.
 */
function migrateVersion2(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'account', '', each.key, each.value
        FROM state, json_each(state.body, '$.accounts') AS each WHERE state.name = 'core';
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'otp', '', each.key, each.value
        FROM state, json_each(state.body, '$.otps') AS each WHERE state.name = 'core';
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'reset_ticket', '', each.key, each.value
        FROM state, json_each(state.body, '$.reset_tickets') AS each WHERE state.name = 'core';
      INSERT OR IGNORE INTO entries (kind, app, id, body)
        SELECT 'ended_session', '', each.key, json(each.value)
        FROM state, json_each(state.body, '$.ended') AS each WHERE state.name = 'sessions';
      UPDATE state SET body = json_remove(body, '$.accounts', '$.otps', '$.reset_tickets') WHERE name = 'core';
      DELETE FROM state WHERE name = 'sessions';
    `);
    db.pragma('user_version = 3');
  })();
}

/** Brings a database of an older version of the emulator to the current layout. */
export function migrate(db: Database.Database, from: 'version 1' | 'version 2'): void {
  if (from === 'version 1') migrateVersion1(db);
  migrateVersion2(db);
}
