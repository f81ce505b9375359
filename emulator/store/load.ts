import type {
  Account,
  AgentConversation,
  EntityRecord,
  OtpState,
  PageVisit,
  ResetTicket,
  SentEmail,
  StoredFile,
} from '../core/types';
import { StoreChange, type StagedChange } from './change';
import type { StoreDatabase, StoredEntry } from './database';
import { DurableWriter, type DurableSource } from './durable';
import { ENTRY_KINDS, isEntryKind } from './entries';
import { readLegacySnapshot, type LegacySnapshot } from './legacy-snapshot';
import { CORE_SECTION, coreSection, parseSection, restoreCore } from './sections';
import { StoreTables } from './tables';

/**
 * Opening a data dir: every row of the database into the store's collections (without marking
 * anything as changed), then the durable writer attached. A new database gets its core (the token
 * secret) at once; a data dir from before the database (`store.json`) is taken over and written.
 */

function loadEntry(tables: StoreTables, entry: StoredEntry, source: string): void {
  if (!isEntryKind(entry.kind))
    throw new Error(`The emulator database in ${source} holds an unknown "${entry.kind}" row.`);
  const value = parseSection(entry.body, `${entry.kind} ${entry.id}`, source);
  if (entry.kind === ENTRY_KINDS.conversation || entry.kind === ENTRY_KINDS.pageVisit) tables.knowApp(entry.app);
  tables.entries.list(entry.kind, entry.app).load(entry.id, value);
  if (entry.kind === ENTRY_KINDS.file) tables.fileBytes += (value as StoredFile).size;
}

function durableSource(tables: StoreTables): DurableSource {
  return {
    currentRecord: (app, entity, id) => tables.existingRecords(app, entity)?.get(id),
    currentEntry: (kind, app, id) => tables.entries.current(kind, app, id),
  };
}

/** Takes over the contents of an old `store.json` as they are (no budget applies to what was kept). */
function adopt(tables: StoreTables, legacy: LegacySnapshot): void {
  const staged: StagedChange = { steps: [], afterwards: [], open: true };
  const change = new StoreChange(tables, staged);
  const values = <T>(entries: Record<string, unknown>) => Object.entries(entries) as [string, T][];
  for (const [, account] of values<Account>(legacy.accounts)) change.addAccount(account);
  for (const [email, state] of values<OtpState>(legacy.otps)) change.recordOtp(email, state);
  for (const [hash, ticket] of values<ResetTicket>(legacy.reset_tickets)) change.putTicket(hash, ticket);
  for (const [, file] of values<StoredFile>(legacy.files)) change.addFile(file);
  for (const mail of legacy.outbox as SentEmail[]) change.sendMail(mail, 'emulator');
  for (const [appId, app] of Object.entries(legacy.apps)) {
    for (const [, conversation] of values<AgentConversation>(app.conversations))
      change.startConversation(appId, conversation);
    for (const visit of app.page_visits as PageVisit[]) change.addPageVisit(appId, visit);
    for (const [entity, records] of Object.entries(app.entities))
      change.insertRecords(appId, entity, Object.values(records) as EntityRecord[]);
  }
  for (const step of staged.steps) step.apply();
}

export function loadDatabase(database: StoreDatabase, dataDir: string, newSecret: () => string): StoreTables {
  const sections = database.sections();
  const core = restoreCore(sections, dataDir);
  const legacy = core === null ? readLegacySnapshot(dataDir) : null;
  const tables = new StoreTables(core?.tokenSecret ?? legacy?.token_secret ?? newSecret());
  for (const appId of core?.apps ?? []) tables.knowApp(appId);
  for (const row of database.records()) {
    const record = parseSection(row.body, `${row.entity} ${row.id}`, dataDir) as EntityRecord;
    tables.recordCollection(row.app, row.entity).load(row.id, record);
  }
  for (const entry of database.entries()) loadEntry(tables, entry, dataDir);
  const writer = new DurableWriter(database, durableSource(tables));
  tables.writer = writer;
  if (core === null) writer.markSection(CORE_SECTION, coreSection(tables.tokenSecret));
  if (legacy) adopt(tables, legacy);
  writer.flush();
  return tables;
}
