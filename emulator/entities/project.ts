import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import JSON5 from 'json5';

import type { EntityDefinition } from './definition';
import { DefinitionError, parseEntityDefinition } from './parse';

/**
 * The Base44 project folder, read as the vendor CLI reads it: `DIR/base44/config.jsonc` (or `.json`)
 * names the entities folder (`entitiesDir`, default `entities`), `DIR/base44/.app.jsonc` (or `.json`)
 * links an app by `{ "id": ... }`, and every `*.jsonc` / `*.json` file directly in the entities
 * folder defines one entity by its `name` field (the file name does not matter; the convention is
 * the kebab-case name). Two files with one name are an error.
 */

export interface ProjectFolder {
  /** The folder holding `base44/`. */
  root: string;
  /** `root/base44`. */
  base44Dir: string;
  /** The project's name from its config, if it gives one. */
  name: string | null;
  /** Absolute folder of the entity files. */
  entitiesDir: string;
  /** Absolute folder of the backend functions (`functionsDir` of the config, default `functions`). */
  functionsDir: string;
  /** The app `.app.jsonc` links, or null when there is none. */
  linkedAppId: string | null;
}

const CONFIG_EXTENSIONS = ['jsonc', 'json'] as const;
const ENTITY_FILE = /\.jsonc?$/;

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** `base44/<stem>.jsonc` or `.json`, parsed as JSON5; null when neither exists. */
async function readConfigFile(base44Dir: string, stem: string): Promise<{ file: string; value: unknown } | null> {
  for (const extension of CONFIG_EXTENSIONS) {
    const file = path.join(base44Dir, `${stem}.${extension}`);
    if (!(await exists(file))) continue;
    try {
      return { file, value: JSON5.parse(await readFile(file, 'utf8')) as unknown };
    } catch (error) {
      throw new DefinitionError(file, `not valid JSON/JSONC (${(error as Error).message})`);
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the project's config and app link; fails clearly when `root` holds no `base44/` project. */
export async function openProjectFolder(root: string): Promise<ProjectFolder> {
  const absolute = path.resolve(root);
  const base44Dir = path.join(absolute, 'base44');
  if (!(await exists(base44Dir))) {
    throw new Error(`${absolute} is not a Base44 project: it has no base44/ folder (see docs/BASE44-CLI.md)`);
  }
  const config = await readConfigFile(base44Dir, 'config');
  if (config && !isObject(config.value)) throw new DefinitionError(config.file, 'the project config must be an object');
  const settings = (config?.value ?? {}) as Record<string, unknown>;
  if (settings.entitiesDir !== undefined && typeof settings.entitiesDir !== 'string') {
    throw new DefinitionError(config?.file ?? base44Dir, '"entitiesDir" must be a folder name');
  }
  if (settings.functionsDir !== undefined && typeof settings.functionsDir !== 'string') {
    throw new DefinitionError(config?.file ?? base44Dir, '"functionsDir" must be a folder name');
  }
  const link = await readConfigFile(base44Dir, '.app');
  let linkedAppId: string | null = null;
  if (link) {
    if (!isObject(link.value) || typeof link.value.id !== 'string' || link.value.id.trim() === '')
      throw new DefinitionError(link.file, 'the app link must be { "id": "<your-app-id>" }');
    linkedAppId = link.value.id;
  }
  return {
    root: absolute,
    base44Dir,
    name: typeof settings.name === 'string' && settings.name !== '' ? settings.name : null,
    entitiesDir: path.resolve(base44Dir, (settings.entitiesDir as string | undefined) ?? 'entities'),
    functionsDir: path.resolve(base44Dir, (settings.functionsDir as string | undefined) ?? 'functions'),
    linkedAppId,
  };
}

/**
 * Reads every entity file of the project. Throws one error naming every broken file, so a
 * half-edited folder is never taken for the whole schema. A missing folder means no entities.
 */
export async function readEntityDefinitions(entitiesDir: string): Promise<Map<string, EntityDefinition>> {
  const names = await readdir(entitiesDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files = names.filter((name) => ENTITY_FILE.test(name)).sort();
  const definitions = new Map<string, EntityDefinition>();
  const origins = new Map<string, string>();
  const problems: string[] = [];
  for (const name of files) {
    const file = path.join(entitiesDir, name);
    try {
      const definition = parseEntityDefinition(await readFile(file, 'utf8'), file);
      const earlier = origins.get(definition.name);
      if (earlier !== undefined) {
        throw new DefinitionError(file, `defines "${definition.name}" again (already in ${path.basename(earlier)})`);
      }
      origins.set(definition.name, file);
      definitions.set(definition.name, definition);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0) throw new Error(`Invalid entity definitions:\n  ${problems.join('\n  ')}`);
  return definitions;
}
