import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import {
  SERVICE_ROLE,
  USER_ENTITY,
  type Account,
  type AppAccess,
  type AppConfig,
  type EntityRecord,
  type Seed,
  type SeedAccount,
  type SeedApp,
  type SeedMember,
} from '../core/types';
import { hashSeedPassword } from '../credentials/passwords';
import { toOrigin } from '../http/cors';
import { plantRecords } from '../records/seeded';
import { newId, type Store } from '../store/store';

/** The seed: accounts and apps. App settings always come from the seed; data only on first start. */

export const DEFAULT_SEED_PATH = path.join(__dirname, 'seed.json');

const ACCESS_MODES: readonly AppAccess[] = ['public', 'login_required', 'registered_only'];
const APP_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function fail(message: string): never {
  throw new Error(`Invalid emulator seed: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${where} must be a non-empty string`);
  return value;
}

function flag(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(`${where} must be true or false`);
  return value;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(`${where} must be a list`);
  return value;
}

function validateAccount(value: unknown, index: number): SeedAccount {
  const where = `accounts[${index}]`;
  if (!isObject(value)) fail(`${where} must be an object`);
  const id = text(value.id, `${where}.id`);
  const email = text(value.email, `${where}.email`).toLowerCase();
  // The service role's stamp on its records: an account with it would own them under `created_by` rules.
  if (email === SERVICE_ROLE.email || id === SERVICE_ROLE.id)
    fail(`${where} uses ${email === SERVICE_ROLE.email ? email : id}, which names the service role on its records`);
  return {
    id,
    email,
    full_name: text(value.full_name, `${where}.full_name`),
    password: text(value.password, `${where}.password`),
  };
}

function validateMember(value: unknown, where: string): SeedMember {
  if (!isObject(value)) fail(`${where} must be an object`);
  if (value.role !== 'admin' && value.role !== 'user') fail(`${where}.role must be "admin" or "user"`);
  return { email: text(value.email, `${where}.email`).toLowerCase(), role: value.role };
}

function validateApp(value: unknown, index: number, emails: Set<string>): SeedApp {
  const where = `apps[${index}]`;
  if (!isObject(value)) fail(`${where} must be an object`);
  const id = text(value.id, `${where}.id`);
  if (!APP_ID.test(id)) fail(`${where}.id "${id}" may only hold letters, digits, "-" and "_"`);
  if (!ACCESS_MODES.includes(value.access as AppAccess))
    fail(`${where}.access must be one of ${ACCESS_MODES.join(', ')}`);
  const siteOrigins = list(value.siteOrigins, `${where}.siteOrigins`).map((origin, at) => {
    const normalised = toOrigin(text(origin, `${where}.siteOrigins[${at}]`));
    if (!normalised) fail(`${where}.siteOrigins[${at}] is not an http(s) origin`);
    return normalised;
  });
  const members = list(value.members ?? [], `${where}.members`).map((member, at) => {
    const parsed = validateMember(member, `${where}.members[${at}]`);
    if (!emails.has(parsed.email)) fail(`${where}.members[${at}] names the unknown account ${parsed.email}`);
    return parsed;
  });
  if (value.entities !== undefined && !isObject(value.entities)) fail(`${where}.entities must be an object`);
  const entities = (value.entities ?? {}) as Record<string, unknown>;
  for (const [name, records] of Object.entries(entities)) {
    list(records, `${where}.entities.${name}`).forEach((record, at) => {
      if (!isObject(record)) fail(`${where}.entities.${name}[${at}] must be an object`);
    });
  }
  return {
    id,
    name: text(value.name, `${where}.name`),
    access: value.access as AppAccess,
    siteOrigins,
    serviceToken: text(value.serviceToken, `${where}.serviceToken`),
    ...(value.functionsDir === undefined ? {} : { functionsDir: text(value.functionsDir, `${where}.functionsDir`) }),
    ...(value.integrationsDir === undefined
      ? {}
      : { integrationsDir: text(value.integrationsDir, `${where}.integrationsDir`) }),
    ...(value.schemaless === undefined ? {} : { schemaless: flag(value.schemaless, `${where}.schemaless`) }),
    members,
    entities: entities as Record<string, Record<string, unknown>[]>,
  };
}

export function validateSeed(value: unknown): Seed {
  if (!isObject(value)) fail('the seed must be an object');
  const accounts = list(value.accounts, 'accounts').map(validateAccount);
  const emails = new Set(accounts.map((account) => account.email));
  if (emails.size !== accounts.length) fail('two accounts share an e-mail address');
  if (new Set(accounts.map((account) => account.id)).size !== accounts.length) fail('two accounts share an id');
  const apps = list(value.apps, 'apps').map((app, index) => validateApp(app, index, emails));
  if (apps.length === 0) fail('at least one app is needed');
  if (new Set(apps.map((app) => app.id)).size !== apps.length) fail('two apps share an id');
  return { accounts, apps };
}

/**
 * The default seed with every app `schemaless` and its function folders made absolute: for tests,
 * benchmarks and load tools that use entity names of their own without a project folder.
 */
export function schemalessDefaultSeed(): Seed {
  const seed = validateSeed(JSON.parse(readFileSync(DEFAULT_SEED_PATH, 'utf8')) as unknown);
  for (const app of seed.apps) {
    app.schemaless = true;
    if (app.functionsDir !== undefined)
      app.functionsDir = path.resolve(path.dirname(DEFAULT_SEED_PATH), app.functionsDir);
    if (app.integrationsDir !== undefined)
      app.integrationsDir = path.resolve(path.dirname(DEFAULT_SEED_PATH), app.integrationsDir);
  }
  return seed;
}

/** The app a project folder links (`base44/.app.jsonc`). */
export interface LinkedApp {
  id: string;
  /** The project's name, for an app the seed does not know. */
  name: string | null;
}

/**
 * Adds the linked app when the seed lacks it, with the settings of the seed's first app (access,
 * site origins, members), so the seeded accounts can use it as they use the seeded apps.
 */
function withLinkedApp(seed: Seed, link: LinkedApp | undefined): Seed {
  if (!link || seed.apps.some((app) => app.id === link.id)) return seed;
  if (!APP_ID.test(link.id)) fail(`the linked app id "${link.id}" may only hold letters, digits, "-" and "_"`);
  const model = seed.apps[0] as SeedApp;
  const linked: SeedApp = {
    id: link.id,
    name: link.name ?? link.id,
    access: model.access,
    siteOrigins: [...model.siteOrigins],
    serviceToken: `service-token-${link.id}`,
    members: model.members.map((member) => ({ ...member })),
    ...(model.schemaless === undefined ? {} : { schemaless: model.schemaless }),
  };
  return { accounts: seed.accounts, apps: [...seed.apps, linked] };
}

/**
 * Reads and validates the seed; relative function folders resolve against the seed file's folder.
 * `link` is the app a project folder links: served too, from the seed's settings if it names it.
 */
export async function loadSeed(
  source: Seed | string | undefined,
  link?: LinkedApp,
): Promise<{ seed: Seed; apps: AppConfig[] }> {
  const file = typeof source === 'string' ? path.resolve(source) : source === undefined ? DEFAULT_SEED_PATH : null;
  const raw: unknown = file ? (JSON.parse(await readFile(file, 'utf8')) as unknown) : source;
  const seed = withLinkedApp(validateSeed(raw), link);
  const baseDir = file ? path.dirname(file) : process.cwd();
  const apps = seed.apps.map((app) => ({
    id: app.id,
    name: app.name,
    access: app.access,
    siteOrigins: app.siteOrigins,
    serviceToken: app.serviceToken,
    functionsDir: app.functionsDir === undefined ? null : path.resolve(baseDir, app.functionsDir),
    integrationsDir: app.integrationsDir === undefined ? null : path.resolve(baseDir, app.integrationsDir),
    schemaless: app.schemaless ?? false,
  }));
  return { seed, apps };
}

function seededMembers(store: Store, app: SeedApp, nowIso: string): EntityRecord[] {
  return app.members.flatMap((member) => {
    const account = store.findAccountByEmail(member.email);
    if (!account) return [];
    return [
      {
        id: account.id,
        email: account.email,
        full_name: account.full_name,
        role: member.role,
        created_date: nowIso,
        updated_date: nowIso,
        created_by: null,
      },
    ];
  });
}

/** Adds what the seed names and the store lacks; never overwrites data a previous run changed. */
export async function applySeed(store: Store, seed: Seed, nowIso: string): Promise<void> {
  const accounts: Account[] = [];
  for (const account of seed.accounts) {
    if (store.account(account.id) || store.findAccountByEmail(account.email)) continue;
    accounts.push({
      id: account.id,
      email: account.email,
      full_name: account.full_name,
      password_hash: await hashSeedPassword(account.password),
      email_verified: true,
      token_version: 0,
      created_date: nowIso,
    });
  }
  await store.write((change) => {
    for (const account of accounts) change.addAccount(account);
  });
  // The apps' members are the accounts above: a second change, which reads them as stored.
  await store.write((change) => {
    for (const app of seed.apps) {
      // An app's data is seeded once per data dir: its `User` records (written even when there are
      // none) mark it as seeded.
      if (store.hasApp(app.id)) continue;
      plantRecords(change, app.id, USER_ENTITY, seededMembers(store, app, nowIso));
      for (const [entity, records] of Object.entries(app.entities ?? {})) {
        plantRecords(
          change,
          app.id,
          entity,
          records.map((fields) => ({
            ...fields,
            id: typeof fields.id === 'string' ? fields.id : newId(),
            created_date: nowIso,
            updated_date: nowIso,
            created_by: null,
          })),
        );
      }
    }
  });
}
