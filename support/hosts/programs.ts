/**
 * The servers of the host matrix that come from Debian (nginx, Apache, Caddy): where to find each,
 * and what to tell a user who lacks one. Debian installs nginx and Apache in /usr/sbin, which is not
 * on every user's PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface DebianServer {
  /** The command, e.g. `apache2`. */
  command: string;
  /** The environment variable that points to another binary, e.g. `APACHE_PATH`. */
  variable: string;
  /** Where installs put it when it is not on PATH. */
  candidates: string[];
  /** Arguments that make it print its version and exit 0. */
  versionArgs: string[];
  /** Debian's package. */
  debianPackage: string;
}

export const DEBIAN_SERVERS = {
  nginx: {
    command: 'nginx',
    variable: 'NGINX_PATH',
    candidates: ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'],
    versionArgs: ['-v'],
    debianPackage: 'nginx',
  },
  apache: {
    command: 'apache2',
    variable: 'APACHE_PATH',
    candidates: ['/usr/sbin/apache2', '/usr/local/sbin/apache2'],
    versionArgs: ['-v'],
    debianPackage: 'apache2',
  },
  caddy: {
    command: 'caddy',
    variable: 'CADDY_PATH',
    candidates: ['/usr/bin/caddy', '/usr/local/bin/caddy'],
    versionArgs: ['version'],
    debianPackage: 'caddy',
  },
} as const satisfies Record<string, DebianServer>;

export type DebianServerName = keyof typeof DEBIAN_SERVERS;

/** The binary: its variable, else the command on PATH, else the usual install places; null when none. */
export function findServer(name: DebianServerName): string | null {
  const server: DebianServer = DEBIAN_SERVERS[name];
  const configured = process.env[server.variable];
  if (configured) return existsSync(configured) ? configured : null;
  if (spawnSync(server.command, server.versionArgs, { stdio: 'ignore' }).status === 0) return server.command;
  return server.candidates.find((candidate) => existsSync(candidate)) ?? null;
}

export function serverMissingHelp(name: DebianServerName): string {
  const server: DebianServer = DEBIAN_SERVERS[name];
  return `${server.command} is missing: install it (Debian/Ubuntu: \`apt-get install ${server.debianPackage}\`) or set ${server.variable} to its binary.`;
}
