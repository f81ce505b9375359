/**
 * Debian's Apache httpd serving a static export, with Debian's own modules (mods-enabled) and the
 * defaults its apache2.conf gives /var/www, plus `a2enmod headers rewrite` for the generated rules.
 * Three set-ups, as users meet them:
 * - `snippet`: a `<VirtualHost>` that `Define`s SITE_ROOT and includes the generated snippet
 *   (`deploy/generated/apache-<folder>.conf`), as docs/DEPLOY.md says;
 * - `htaccess`: the folder with Debian's defaults and `AllowOverride All`, so `out/.htaccess` applies
 *   (shared hosting);
 * - `defaults`: Debian's defaults alone (`Options Indexes FollowSymLinks`, `AllowOverride None`).
 * Only what running unprivileged on a loopback port needs is added: a temporary ServerRoot-independent
 * PidFile, ErrorLog and runtime folder, no daemon (`-DFOREGROUND`), and when started as root the
 * children run as `nobody`, as Debian's run as www-data.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../processes';
import { generatedSnippetFor } from './nginx';
import { processHost } from './process-host';
import { findServer, serverMissingHelp } from './programs';
import type { RunningHost } from './types';

export type ApacheSetup = 'snippet' | 'htaccess' | 'defaults';

/** Debian's configuration root (`apache2 -V`: HTTPD_ROOT), where mods-enabled/ lives. */
function httpdRoot(apache: string): string {
  const info = spawnSync(apache, ['-V'], { encoding: 'utf8' });
  return /HTTPD_ROOT="([^"]+)"/.exec(info.stdout ?? '')?.[1] ?? '/etc/apache2';
}

function siteBlock(setup: ApacheSetup, port: number, root: string, snippet: string): string[] {
  if (setup === 'snippet') {
    return [
      `<VirtualHost 127.0.0.1:${port}>`,
      `  Define SITE_ROOT "${root}"`,
      `  Include "${snippet}"`,
      '</VirtualHost>',
    ];
  }
  return [
    `DocumentRoot "${root}"`,
    `<Directory "${root}">`,
    '  Options Indexes FollowSymLinks',
    `  AllowOverride ${setup === 'htaccess' ? 'All' : 'None'}`,
    '  Require all granted',
    '</Directory>',
  ];
}

function apacheConf(options: {
  prefix: string;
  port: number;
  root: string;
  setup: ApacheSetup;
  snippet: string;
  apache: string;
}) {
  const { prefix, port, root, setup, snippet, apache } = options;
  const modules = httpdRoot(apache);
  return [
    `ServerRoot "${modules}"`,
    'ServerName 127.0.0.1',
    `DefaultRuntimeDir "${prefix}"`,
    `PidFile "${path.join(prefix, 'apache2.pid')}"`,
    `ErrorLog "${path.join(prefix, 'error.log')}"`,
    'LogLevel warn',
    ...(process.getuid?.() === 0 ? ['User nobody', 'Group nogroup'] : []),
    'IncludeOptional mods-enabled/*.load',
    'IncludeOptional mods-enabled/*.conf',
    ...(setup === 'defaults'
      ? []
      : [
          '<IfModule !headers_module>',
          '  Include mods-available/headers.load',
          '</IfModule>',
          '<IfModule !rewrite_module>',
          '  Include mods-available/rewrite.load',
          '</IfModule>',
        ]),
    // What Debian's apache2.conf says for every server.
    'AccessFileName .htaccess',
    '<FilesMatch "^\\.ht">',
    '  Require all denied',
    '</FilesMatch>',
    '<Directory />',
    '  Options FollowSymLinks',
    '  AllowOverride None',
    '  Require all denied',
    '</Directory>',
    `Listen 127.0.0.1:${port}`,
    ...siteBlock(setup, port, root, snippet),
    '',
  ].join('\n');
}

export async function startApacheHost(options: {
  outDir: string;
  port?: number;
  setup?: ApacheSetup;
}): Promise<RunningHost> {
  const apache = findServer('apache');
  if (!apache) throw new Error(serverMissingHelp('apache'));
  const root = path.resolve(options.outDir);
  const setup = options.setup ?? 'snippet';
  const snippet = generatedSnippetFor(root, 'apache');
  if (setup === 'snippet' && !existsSync(snippet)) throw new Error(`${snippet} is missing: build ${root} first`);
  const port = options.port || (await freePort());
  const prefix = mkdtempSync(path.join(tmpdir(), 'apache-host-'));
  chmodSync(prefix, 0o755);
  const config = path.join(prefix, 'apache2.conf');
  writeFileSync(config, apacheConf({ prefix, port, root, setup, snippet, apache }));
  const errorLog = path.join(prefix, 'error.log');
  const child = spawn(apache, ['-f', config, '-DFOREGROUND'], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return processHost({
    name: `apache (${setup})`,
    child,
    port,
    scratch: prefix,
    timeoutMs: 15_000,
    describe: () => `${output.join('')}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '(no error log)'}`,
  });
}
