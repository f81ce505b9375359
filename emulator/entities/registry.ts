import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

import { USER_ENTITY } from '../core/types';
import type { EntityDefinition, EntityDefinitions, EntityLookup } from './definition';
import { readEntityDefinitions, type ProjectFolder } from './project';

/**
 * The entity definitions the emulator serves: the project's, for the apps they belong to (every
 * served app when the emulator has a project), reloaded when the files change. Apps the
 * seed marks `schemaless` take any entity name the project does not define, as before definitions
 * existed; any other app answers "missing" (404) for them. `User` is built in: without a
 * definition it keeps its own rules (model/user-security.ts) and is never missing.
 */

const DEFAULT_DEBOUNCE_MS = 100;
const MISSING: EntityLookup = { kind: 'missing' };
const SCHEMALESS: EntityLookup = { kind: 'schemaless' };

export interface EntityRegistryOptions {
  /** Apps the project's definitions apply to. */
  projectApps: ReadonlySet<string>;
  /** Apps the seed marks as schemaless (tests). */
  schemalessApps: ReadonlySet<string>;
  /** The definitions read at start. */
  initial: ReadonlyMap<string, EntityDefinition>;
}

export class EntityRegistry implements EntityDefinitions {
  private definitions: ReadonlyMap<string, EntityDefinition>;
  private readonly projectApps: ReadonlySet<string>;
  private readonly schemalessApps: ReadonlySet<string>;

  constructor(options: EntityRegistryOptions) {
    this.definitions = options.initial;
    this.projectApps = options.projectApps;
    this.schemalessApps = options.schemalessApps;
  }

  lookup(appId: string, entity: string): EntityLookup {
    const definition = this.projectApps.has(appId) ? this.definitions.get(entity) : undefined;
    if (definition) return { kind: 'defined', definition };
    if (this.schemalessApps.has(appId) || entity === USER_ENTITY) return SCHEMALESS;
    return MISSING;
  }

  /** The names the project defines, sorted (for the start-up summary). */
  names(): string[] {
    return [...this.definitions.keys()].sort();
  }

  replace(definitions: ReadonlyMap<string, EntityDefinition>): void {
    this.definitions = definitions;
  }
}

/** Where reload news goes: `problem` is shown even when the emulator is quiet. */
export interface ReloadLog {
  info(message: string): void;
  problem(message: string): void;
}

export interface EntityWatcher {
  /** Resolves when the reload triggered by the latest change has finished (tests). */
  settled(): Promise<void>;
  close(): void;
}

/**
 * Watches the project's `base44/` folder and re-reads the entity files after changes settle
 * (`debounceMs` without a further event). A folder that does not read cleanly keeps the last good
 * definitions in place and logs which file is wrong; the next good save takes effect.
 */
export function watchEntityFiles(
  project: ProjectFolder,
  registry: EntityRegistry,
  log: ReloadLog,
  debounceMs = DEFAULT_DEBOUNCE_MS,
): EntityWatcher {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let pending: Promise<void> | null = null;
  let resolvePending: (() => void) | null = null;
  let closed = false;

  const reload = async () => {
    try {
      const definitions = await readEntityDefinitions(project.entitiesDir);
      if (closed) return;
      registry.replace(definitions);
      log.info(`entities reloaded: ${registry.names().join(', ') || '(none)'}`);
    } catch (error) {
      log.problem(
        `${error instanceof Error ? error.message : String(error)}\n  keeping the last good definitions: ${registry.names().join(', ') || '(none)'}`,
      );
    }
  };

  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    pending ??= new Promise<void>((resolve) => {
      resolvePending = resolve;
    });
    timer = setTimeout(() => {
      timer = null;
      const done = resolvePending;
      pending = null;
      resolvePending = null;
      running = running.then(reload).finally(() => done?.());
    }, debounceMs);
  };

  // One recursive watch on base44/: it also sees the entities folder being created, renamed or
  // replaced, which a watch on the folder itself would lose. An entities folder outside base44/
  // (entitiesDir: "../x") is watched itself.
  const entitiesRelative = path.relative(project.base44Dir, project.entitiesDir);
  const outside = entitiesRelative.startsWith('..') || path.isAbsolute(entitiesRelative);
  const watchRoot = outside ? project.entitiesDir : project.base44Dir;
  const concernsEntities = (file: string | null) =>
    outside || file === null || file === entitiesRelative || file.startsWith(`${entitiesRelative}${path.sep}`);
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(watchRoot, { recursive: !outside }, (_event, file) => {
      if (concernsEntities(file === null ? null : String(file))) schedule();
    });
    watcher.on('error', (error) => log.problem(`watching ${watchRoot} stopped: ${error.message}`));
  } catch (error) {
    log.problem(`entity files are not watched (${(error as Error).message}); restart after editing them`);
  }

  return {
    settled: () => pending ?? running,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      resolvePending?.();
      watcher?.close();
    },
  };
}
