/**
 * The host matrix's servers from npm (wrangler on Node 22, superstatic, serve), from the pinned cache
 * that runtime/install.mjs fills on first use. When they cannot be installed this throws with the
 * reason, so the matrix fails rather than skipping a host.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const INSTALLER = path.join(__dirname, 'runtime', 'install.mjs');

export interface HostRuntimes {
  /** Node 22, for wrangler. */
  node: string;
  wrangler: string;
  /** superstatic's and serve's command-line entry points, run on this Node. */
  superstatic: string;
  serve: string;
}

let installed: HostRuntimes | null = null;

/** Installs when needed (the npm registry, once; run it outside a network namespace). */
export function hostRuntimes(): HostRuntimes {
  if (installed) return installed;
  const result = spawnSync(process.execPath, [INSTALLER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) {
    throw new Error('The host runtimes could not be installed (see above): wrangler, Node 22, superstatic, serve.');
  }
  installed = JSON.parse(result.stdout) as HostRuntimes;
  return installed;
}
