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
import { findServer, serverMissingHelp } from './programs';
import type { RunningHost } from './types';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** The mime.types next to the install's own nginx.conf (`nginx -V` names it). */
function mimeTypesOf(nginx: string): string {
  const info = spawnSync(nginx, ['-V'], { encoding: 'utf8' });
  const confPath = /--conf-path=(\S+)/.exec(`${info.stdout}${info.stderr}`)?.[1] ?? '/etc/nginx/nginx.conf';
  return path.join(path.dirname(confPath), 'mime.types');
}

/**
 * A snippet the build generated for this export folder (build-steps/export/generate-headers.ts):
 * `nginx-out.conf`, `apache-out.conf`, `caddy-out.caddy`.
 */
export function generatedSnippetFor(outDir: string, server: 'nginx' | 'apache' | 'caddy'): string {
  const extension = server === 'caddy' ? 'caddy' : 'conf';
  return path.join(REPO_ROOT, 'deploy', 'generated', `${server}-${path.basename(path.resolve(outDir))}.${extension}`);
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
  const nginx = findServer('nginx');
  if (!nginx) throw new Error(serverMissingHelp('nginx'));
  const root = path.resolve(options.outDir);
  const snippet = options.snippet ?? generatedSnippetFor(root, 'nginx');
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
