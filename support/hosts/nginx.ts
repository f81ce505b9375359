/**
 * Real nginx (Debian's package) serving a static export exactly as docs/DEPLOY.md tells users to:
 * `out/` as the root of a `server` block that `include`s the generated snippet
 * (`deploy/generated/nginx-<folder>.conf`), inside the `http` block every nginx install ships
 * (mime.types, default_type). Only what running unprivileged needs is added: a free port on
 * 127.0.0.1, a temporary prefix for the pid file, logs and temp folders, no daemon.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../processes';
import { processHost } from './process-host';
import type { RunningHost } from './types';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** Debian installs nginx in /usr/sbin, which is not on every user's PATH. */
const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

/** The nginx binary: NGINX_PATH, else `nginx` on PATH, else the usual install places; null when none. */
export function findNginx(): string | null {
  if (process.env.NGINX_PATH) return existsSync(process.env.NGINX_PATH) ? process.env.NGINX_PATH : null;
  const onPath = spawnSync('nginx', ['-v'], { stdio: 'ignore' });
  if (onPath.status === 0) return 'nginx';
  return NGINX_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
}

export const NGINX_MISSING_HELP =
  'nginx is missing: install it (Debian/Ubuntu: `apt-get install nginx`) or set NGINX_PATH to its binary.';

/** The mime.types next to the install's own nginx.conf (`nginx -V` names it). */
function mimeTypesOf(nginx: string): string {
  const info = spawnSync(nginx, ['-V'], { encoding: 'utf8' });
  const confPath = /--conf-path=(\S+)/.exec(`${info.stdout}${info.stderr}`)?.[1] ?? '/etc/nginx/nginx.conf';
  return path.join(path.dirname(confPath), 'mime.types');
}

/** The snippet the build generated for this export folder (build-steps/export/generate-headers.ts). */
export function nginxSnippetFor(outDir: string): string {
  return path.join(REPO_ROOT, 'deploy', 'generated', `nginx-${path.basename(path.resolve(outDir))}.conf`);
}

function nginxConf(options: { prefix: string; port: number; root: string; snippet: string; mimeTypes: string }) {
  const { prefix, port, root, snippet, mimeTypes } = options;
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `  ${kind}_temp_path ${path.join(prefix, kind)};`,
  );
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    `  include ${mimeTypes};`,
    '  default_type application/octet-stream;',
    '  access_log off;',
    ...temp,
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    root ${root};`,
    `    include ${snippet};`,
    '  }',
    '}',
    '',
  ].join('\n');
}

export async function startNginxHost(options: {
  outDir: string;
  port?: number;
  snippet?: string;
}): Promise<RunningHost> {
  const nginx = findNginx();
  if (!nginx) throw new Error(NGINX_MISSING_HELP);
  const root = path.resolve(options.outDir);
  const snippet = options.snippet ?? nginxSnippetFor(root);
  if (!existsSync(snippet)) throw new Error(`${snippet} is missing: build ${root} first (npm run build)`);
  const port = options.port || (await freePort());
  const prefix = mkdtempSync(path.join(tmpdir(), 'nginx-host-'));
  const config = path.join(prefix, 'nginx.conf');
  writeFileSync(config, nginxConf({ prefix, port, root, snippet, mimeTypes: mimeTypesOf(nginx) }));

  const errorLog = path.join(prefix, 'error.log');
  const child = spawn(nginx, ['-p', prefix, '-e', errorLog, '-c', config], { detached: true, stdio: 'ignore' });
  return processHost({
    name: 'nginx',
    child,
    port,
    scratch: prefix,
    timeoutMs: 15_000,
    describe: () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '(no error log)'),
  });
}
