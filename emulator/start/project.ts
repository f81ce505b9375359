import type { AppConfig, EmulatorOptions, Seed } from '../core/types';
import { openProjectFolder, readEntityDefinitions, type ProjectFolder } from '../entities/project';
import { EntityRegistry } from '../entities/registry';
import { loadSeed } from '../seed/seed';

/** What a start serves: the project folder (if any), the seed, the apps and their entity definitions. */
export interface ServedProject {
  project: ProjectFolder | null;
  seed: Seed;
  apps: AppConfig[];
  entities: EntityRegistry;
}

/**
 * Reads the project folder first (the app it links decides which apps are served), then the seed,
 * then the project's entity definitions for every served app.
 */
export async function openServedProject(options: EmulatorOptions): Promise<ServedProject> {
  const project = options.projectDir === undefined ? null : await openProjectFolder(options.projectDir);
  const initial = project ? await readEntityDefinitions(project.entitiesDir) : new Map();
  const { seed, apps } = await loadSeed(
    options.seed,
    project?.linkedAppId ? { id: project.linkedAppId, name: project.name } : undefined,
  );
  const entities = new EntityRegistry({
    initial,
    // Every served app shares the project's entities: the seeded apps are local stand-ins for the
    // linked one (same site, different access modes), and a local build keeps its seeded app id.
    projectApps: new Set(project ? apps.map((app) => app.id) : []),
    schemalessApps: new Set(apps.filter((app) => app.schemaless).map((app) => app.id)),
  });
  return { project, seed, apps, entities };
}
