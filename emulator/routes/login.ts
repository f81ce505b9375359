import { requireEmail } from '../auth/accounts';
import { checkAppHeader } from '../auth/caller';
import type { AppConfig } from '../core/types';
import { clearedSessionCookie, sessionFromCookie } from '../credentials/sessions';
import { readUrlEncodedForm } from '../http/body';
import { wireStatus } from '../http/errors';
import { htmlReply, type Reply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import { siteOriginsOf, type EmulatorContext } from '../instance/context';
import { loginPageCsp, renderLoginForm, renderRefusal } from '../pages/login-page';
import { authenticate, completeLogin } from './auth';

/**
 * `{appBase}/login?from_url=...`: log in, then go back to `from_url` with `access_token` added, but
 * only to an origin the app allows. An open redirect here would hand tokens to any site, so an
 * unknown origin gets a refusal page, never a redirect. Every emulated app shares one base URL, so
 * the app comes from `app_id`, from a per-app base URL (`{url}/apps/{appId}/login`), or from the
 * `app_id` of the return address (the local site keeps `?app_id=` in its address; @base44/sdk's
 * login links, like ours, name no app, since the platform gives every app its own login page);
 * otherwise the visitor picks it in the form.
 */

/** The app named by the return address's own `?app_id=`, when it is one of this emulator's. */
function appOfReturnAddress(context: EmulatorContext, fromUrl: string | null): string | null {
  if (!fromUrl) return null;
  try {
    const named = new URL(fromUrl).searchParams.get('app_id');
    return named !== null && context.apps.has(named) ? named : null;
  } catch {
    return null;
  }
}

const REDIRECT_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

function headersFor(origins: Iterable<string>): Record<string, string> {
  // same-origin, not no-referrer: the form's own post then carries the real Origin for the CSRF check,
  // and nothing is sent to other sites.
  return {
    'Content-Security-Policy': loginPageCsp(origins),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
  };
}

function refuse(status: number, title: string, message: string): Reply {
  return htmlReply(status, renderRefusal(title, message), headersFor([]));
}

/** from_url must be an absolute http(s) URL without credentials on one of the allowed origins. */
function checkFromUrl(raw: string | null, allowed: ReadonlySet<string>): URL | Reply {
  if (raw === null || raw === '')
    return refuse(400, 'Missing return address', 'The login link has no from_url parameter.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(400, 'Invalid return address', 'from_url must be an absolute http(s) address.');
  }
  const safeScheme = url.protocol === 'http:' || url.protocol === 'https:';
  if (!safeScheme || url.username !== '' || url.password !== '' || !allowed.has(url.origin)) {
    return refuse(
      400,
      'Return address not allowed',
      `This app does not allow logging in for ${url.origin}. Add it to the app's site origins or pass --site-origin.`,
    );
  }
  return url;
}

function appChoices(context: EmulatorContext, appId: string | null): { apps: AppConfig[] } | Reply {
  if (appId === null || appId === '') return { apps: [...context.apps.values()] };
  const app = context.apps.get(appId);
  return app ? { apps: [app] } : refuse(404, 'Unknown app', `There is no app "${appId}" in this emulator.`);
}

/**
 * The login form's post: only from the emulator's own page (no login CSRF), then the credentials,
 * then a redirect to the return address with the token, or the form again with the reason.
 */
async function submitLoginForm(context: EmulatorContext, request: RouteRequest): Promise<Reply> {
  try {
    context.addresses.checkFormOrigin(request.headers);
  } catch (error) {
    const status = wireStatus(error);
    if (status !== undefined) return refuse(status, 'Login refused', (error as Error).message);
    throw error;
  }
  const form = await readUrlEncodedForm(request.raw, context.bodyLimitBytes);
  const app = context.apps.get(form.get('app_id') ?? '');
  if (!app) return refuse(400, 'Unknown app', 'The login form did not name an app of this emulator.');
  checkAppHeader(request.headers, app.id);
  const origins = siteOriginsOf(context, app);
  const fromUrl = checkFromUrl(form.get('from_url'), origins);
  if (!(fromUrl instanceof URL)) return fromUrl;
  const email = form.get('email') ?? '';
  const again = (status: number, error: string): Reply =>
    htmlReply(
      status,
      renderLoginForm({
        fromUrl: fromUrl.href,
        apps: [{ id: app.id, name: app.name }],
        selectedAppId: app.id,
        email,
        error,
      }),
      headersFor(origins),
    );
  try {
    const account = await authenticate(context, requireEmail(email), form.get('password') ?? '');
    const login = await completeLogin(context, app, account);
    const target = new URL(fromUrl.href);
    target.searchParams.set('access_token', login.body.access_token);
    return { status: 303, headers: { ...REDIRECT_HEADERS, Location: target.href, 'Set-Cookie': login.cookie } };
  } catch (error) {
    const status = wireStatus(error);
    if (status !== undefined && status < 500) return again(status, (error as Error).message);
    throw error;
  }
}

// auth.loginWithProvider(provider) sends the browser here. The emulator has no identity providers,
// so every provider (Google, Microsoft, SSO, ...) stands in as its own login form for the app.
function providerLogin(request: RouteRequest, appId: string | null): Reply {
  const provider = request.params.provider ?? 'google';
  if (!/^[a-z0-9-]{1,40}$/.test(provider))
    return refuse(404, 'Unknown provider', 'This login provider does not exist.');
  const target = new URLSearchParams({
    app_id: appId ?? request.url.searchParams.get('app_id') ?? '',
    from_url: request.url.searchParams.get('from_url') ?? '',
  });
  return { status: 303, headers: { ...REDIRECT_HEADERS, Location: `/login?${target.toString()}` } };
}

export function registerLoginRoutes(router: Router, context: EmulatorContext): void {
  const showForm = (params: URLSearchParams, appId: string | null): Reply => {
    const choices = appChoices(context, appId);
    if ('status' in choices) return choices;
    const origins = new Set(choices.apps.flatMap((app) => [...siteOriginsOf(context, app)]));
    const fromUrl = checkFromUrl(params.get('from_url'), origins);
    if (!(fromUrl instanceof URL)) return fromUrl;
    const html = renderLoginForm({
      fromUrl: fromUrl.href,
      apps: choices.apps.map((app) => ({ id: app.id, name: app.name })),
      selectedAppId: choices.apps[0]?.id ?? '',
    });
    return htmlReply(200, html, headersFor(origins));
  };

  router.add('GET', '/login', (request) => {
    const params = request.url.searchParams;
    return showForm(params, params.get('app_id') ?? appOfReturnAddress(context, params.get('from_url')));
  });
  // A per-app base URL (`{url}/apps/{appId}`) names the app without a query parameter.
  router.add('GET', '/apps/:appId/login', (request) =>
    showForm(request.url.searchParams, request.params.appId as string),
  );

  router.add('POST', '/login', (request) => submitLoginForm(context, request));

  router.add('GET', '/api/apps/auth/login', (request) => providerLogin(request, null));
  router.add('GET', '/api/apps/auth/:provider/login', (request) => providerLogin(request, null));
  router.add('GET', '/api/apps/:appId/auth/sso/login', (request) =>
    providerLogin(request, request.params.appId as string),
  );

  // Ends the login session named by the cookie (every token issued in it stops working), then goes
  // back, with the same origin rules as login.
  router.add('GET', '/api/apps/auth/logout', async (request) => {
    const origins = new Set([...context.apps.values()].flatMap((app) => [...siteOriginsOf(context, app)]));
    const fromUrl = checkFromUrl(request.url.searchParams.get('from_url'), origins);
    if (!(fromUrl instanceof URL)) return fromUrl;
    const sessionId = sessionFromCookie(request.headers);
    // Persisted before the answer: with a data dir the ended session survives a restart.
    if (sessionId !== null) await context.store.write((change) => context.sessions.end(sessionId, change));
    return {
      status: 303,
      headers: { ...REDIRECT_HEADERS, Location: fromUrl.href, 'Set-Cookie': clearedSessionCookie() },
    };
  });
}
