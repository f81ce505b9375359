/**
 * The platform pages the browser is sent to for signing in and out: the login page, a provider's
 * sign-in and the platform's logout. Addresses are built as the reference builds them, also where
 * `window` is only partly there (tests, embedded runtimes and webviews give a `location` with an
 * `href` only, an empty one, or none at all): `{appBaseUrl}/login?...`, which without an app base URL
 * is a path on the page's own origin (`/login?...`), never an address invented from a guessed origin.
 */
import { ErrorCodes, invalidArgument, PlatformError } from '../core/errors';
import { apiPath } from '../core/validate';
import type { AuthModule } from './auth-types';
import { browserNavigation, hasWindow } from './browser-navigation';

export interface SignInPagesContext {
  appId: string;
  /** Absolute app base URL, or "" for paths on the page's own origin. */
  appBaseUrl: string;
}

export type SignInPages = Pick<AuthModule, 'loginUrl' | 'redirectToLogin' | 'loginWithProvider'> & {
  /** In a browser, navigates to the platform's logout, which returns to `redirectUrl` (default: this page). */
  leaveThroughLogout(redirectUrl?: string): void;
};

function requireWindow(): void {
  if (!hasWindow()) {
    throw new PlatformError('Login method can only be used in a browser environment', {
      code: ErrorCodes.browserRequired,
    });
  }
}

/** The page's address, or "" where a minimal `location` has none. */
function pageHref(): string {
  const { href } = window.location;
  return typeof href === 'string' ? href : '';
}

/**
 * The page's origin: `location.origin`, else the origin of `location.href` (stubs without `origin`,
 * sandboxed documents whose origin reads "null"), else undefined.
 */
function pageOrigin(): string | undefined {
  const { origin } = window.location;
  if (typeof origin === 'string' && origin !== '' && origin !== 'null') return origin;
  try {
    const fromHref = new URL(pageHref()).origin;
    return fromHref === 'null' ? undefined : fromHref;
  } catch {
    return undefined;
  }
}

/**
 * `target` resolved against the page's origin, as the reference resolves return addresses. An
 * absolute target needs no page address; a relative one without a page origin is refused.
 */
function resolveAgainstPage(label: string, target: string): string {
  try {
    return new URL(target, pageOrigin()).href;
  } catch {
    throw invalidArgument(`${label} is not a valid URL`);
  }
}

/** `?from_url=...`, or nothing when there is no address to return to (a window without one). */
function returnQuery(fromUrl: string, separator: '?' | '&'): string {
  return fromUrl ? `${separator}from_url=${encodeURIComponent(fromUrl)}` : '';
}

export function createSignInPages({ appId, appBaseUrl }: SignInPagesContext): SignInPages {
  const base = appBaseUrl.replace(/\/+$/, '');

  function loginUrl(nextUrl?: string): string {
    requireWindow();
    const returnTo = nextUrl ? resolveAgainstPage('nextUrl', nextUrl) : pageHref();
    return `${base}/login${returnQuery(returnTo, '?')}`;
  }

  function providerUrl(provider: string, returnTo: string): string {
    // Google is the platform's default provider: no path segment. SSO is per app.
    const path =
      provider === 'sso'
        ? `${apiPath`/apps/${appId}/auth/sso`}/login`
        : `/apps/auth${provider === 'google' ? '' : `/${encodeURIComponent(provider)}`}/login`;
    return `${base}/api${path}?app_id=${encodeURIComponent(appId)}${returnQuery(returnTo, '&')}`;
  }

  return {
    loginUrl,
    redirectToLogin(nextUrl) {
      browserNavigation.assign(loginUrl(nextUrl));
    },
    loginWithProvider(provider, fromUrl = '/') {
      requireWindow();
      const returnTo = resolveAgainstPage('fromUrl', fromUrl);
      const url = providerUrl(provider, returnTo);
      const origin = pageOrigin();
      // In a frame (the editor's preview) providers refuse to load: sign in through a popup, which
      // hands the token back by postMessage, accepted from the page's own origin only.
      if (window.parent === window || !origin) {
        browserNavigation.assign(url);
        return;
      }
      void import('./login-popup.lazy').then(({ loginViaPopup }) =>
        loginViaPopup(`${url}&popup_origin=${encodeURIComponent(origin)}`, returnTo, origin, browserNavigation.assign),
      );
    },
    leaveThroughLogout(redirectUrl) {
      if (!hasWindow()) return;
      // As the reference: the address as given; the platform's logout page decides where it may return.
      const fromUrl = redirectUrl || pageHref();
      browserNavigation.assign(`${base}/api/apps/auth/logout${returnQuery(fromUrl, '?')}`);
    },
  };
}
