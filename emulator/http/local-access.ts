import type { IncomingHttpHeaders } from 'node:http';
import { networkInterfaces } from 'node:os';

import { forbidden } from '../core/errors';
import { HttpError } from './errors';

/**
 * Who may reach the emulator at all, and who may use its local-only parts.
 *
 * - `Host` must name an address the emulator listens on (loopback names, the bound host) with its
 *   port. A DNS-rebinding page reaches the emulator under its own host name, so it is refused
 *   before any route runs (421 Misdirected Request), for HTTP and socket.io alike.
 * - Form posts (the login page) must come from the emulator's own origin: no login CSRF.
 * - `/api/_emulator/*` helpers answer only loopback callers that carry no foreign `Origin`.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Every host name a wildcard bind answers on: the machine's interface addresses. */
function interfaceHosts(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => bracketed(entry.address.split('%')[0] as string));
}

export class LocalAddresses {
  private hosts: ReadonlySet<string> = new Set();

  /** Called once the server listens: the bound host as configured and the real port. */
  bind(boundHost: string, port: number): void {
    const names = new Set(LOOPBACK_NAMES);
    const bound = bracketed(boundHost.toLowerCase());
    if (WILDCARD_HOSTS.has(bound)) for (const name of interfaceHosts()) names.add(name.toLowerCase());
    else names.add(bound);
    const hosts = new Set<string>();
    for (const name of names) {
      hosts.add(`${name}:${port}`);
      if (port === 80) hosts.add(name);
    }
    this.hosts = hosts;
  }

  isAllowedHost(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.trim().toLowerCase());
  }

  /** `http://{host}` for each allowed host: the origins of pages the emulator serves itself. */
  isOwnOrigin(origin: string): boolean {
    const match = /^http:\/\/([^/]+)$/i.exec(origin);
    return match !== null && this.isAllowedHost(match[1]);
  }

  /** Throws unless the Host header names this emulator. */
  checkHost(host: string | undefined): void {
    if (host === undefined || host.trim() === '') {
      throw new HttpError(400, 'The request has no Host header', { code: 'host_required' });
    }
    if (!this.isAllowedHost(host)) {
      throw new HttpError(421, `This emulator does not answer for the host ${host.slice(0, 200)}`, {
        code: 'host_not_allowed',
        detail: "Use 127.0.0.1, localhost, [::1] or the address given with --host, with the emulator's port.",
      });
    }
  }

  /**
   * A form post must come from a page of the emulator itself. Fetch Metadata (`Sec-Fetch-Site`),
   * which a page cannot forge, decides where browsers send it; `Origin` is checked as well, and is
   * `null` on a same-origin post from a page with a strict referrer policy. A request with neither
   * header comes from a non-browser client, which cannot be a CSRF victim.
   */
  checkFormOrigin(headers: IncomingHttpHeaders): void {
    const origin = headers.origin;
    const site = headers['sec-fetch-site'];
    const crossSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    const ownOrigin = origin === undefined || this.isOwnOrigin(origin) || (origin === 'null' && site === 'same-origin');
    if (crossSite || !ownOrigin) {
      throw forbidden("This form can only be submitted from the emulator's own login page", 'cross_site_form');
    }
  }

  /** The `/api/_emulator/*` helpers: loopback callers only, never a page of another origin. */
  checkLocalTool(remoteAddress: string | undefined, headers: IncomingHttpHeaders): void {
    if (!isLoopback(remoteAddress)) {
      throw forbidden('Emulator helpers answer only callers on this machine', 'local_only');
    }
    const origin = headers.origin;
    const site = headers['sec-fetch-site'];
    const foreignOrigin = origin !== undefined && !this.isOwnOrigin(origin);
    const crossSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (foreignOrigin || crossSite) {
      throw forbidden('Emulator helpers cannot be called from a web page of another origin', 'local_only');
    }
  }
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}
