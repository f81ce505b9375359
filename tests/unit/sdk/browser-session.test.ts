/**
 * What the SDK does in a browser: the stored token, the X-Origin-URL header, the 401-during-login
 * branch, logout and the login redirect. Requests go to a real local HTTP server; navigation, which
 * jsdom cannot perform, is observed through the SDK's navigation object.
 */
import { browserNavigation } from '@/lib/sdk/auth/browser-navigation';
import { createClient } from '@/lib/sdk/client/create-client';
import { isPlatformError } from '@/lib/sdk/core/errors';
import { startRecordingServer, type RecordingServer } from '@/tests/integration/sdk/recording-server';

let server: RecordingServer;
let assign: jest.SpyInstance;
let reload: jest.SpyInstance;

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/ComingSoon?tab=1#top');
  server.requests.length = 0;
  server.respond(() => ({ status: 200, body: { ok: true } }));
  assign = jest.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
  reload = jest.spyOn(browserNavigation, 'reload').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const APP_BASE = 'https://apps.example';
const APP_ID = 'coming-soon';
const client = (token?: string | null) =>
  createClient({
    serverUrl: server.url,
    appId: 'coming-soon',
    appBaseUrl: APP_BASE,
    ...(token === undefined ? {} : { token }),
  });

describe('token', () => {
  it('uses the stored token when none is passed', async () => {
    window.localStorage.setItem('base44_access_token', 'stored');
    await client().auth.me();
    expect(server.requests[0]?.headers.authorization).toBe('Bearer stored');
  });

  it('setToken stores under both keys unless told not to', () => {
    const c = client(null);
    c.setToken('kept');
    expect([localStorage.getItem('base44_access_token'), localStorage.getItem('token')]).toEqual(['kept', 'kept']);
    c.setToken('memory-only', false);
    expect(c.getToken()).toBe('memory-only');
    expect(localStorage.getItem('base44_access_token')).toBe('kept');
  });

  it('sends the current address as X-Origin-URL', async () => {
    await client(null).publicSettings.get();
    expect(server.requests[0]?.headers['x-origin-url']).toBe('http://localhost/ComingSoon?tab=1#top');
  });
});

describe('login', () => {
  it('stores the returned token under both keys', async () => {
    server.respond(() => ({
      status: 200,
      body: { access_token: 'fresh', user: { id: 'u', email: 'a@b.c', role: 'user' } },
    }));
    const c = client(null);
    await c.auth.login('a@b.c', 'pw');
    expect(c.getToken()).toBe('fresh');
    expect([localStorage.getItem('base44_access_token'), localStorage.getItem('token')]).toEqual(['fresh', 'fresh']);
  });

  it('a 401 logs out: both keys and the client token are cleared, without navigating', async () => {
    localStorage.setItem('base44_access_token', 'old');
    localStorage.setItem('token', 'old');
    server.respond(() => ({ status: 401, body: { message: 'Invalid email or password' } }));
    const c = client();
    const error = await c.auth.login('a@b.c', 'wrong').catch((caught: unknown) => caught);
    expect(isPlatformError(error) && error.message).toBe('Invalid email or password');
    expect(c.getToken()).toBeNull();
    expect([localStorage.getItem('base44_access_token'), localStorage.getItem('token')]).toEqual([null, null]);
    expect(assign).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('logout', () => {
  beforeEach(() => {
    localStorage.setItem('base44_access_token', 'tok');
    localStorage.setItem('token', 'tok');
  });

  const platformLogout = (fromUrl: string) =>
    `https://apps.example/api/apps/auth/logout?from_url=${encodeURIComponent(fromUrl)}`;

  it('clears both keys and the client token, then lets the platform end its session and come back here', () => {
    const c = client();
    c.auth.logout();
    expect(c.getToken()).toBeNull();
    expect([localStorage.getItem('base44_access_token'), localStorage.getItem('token')]).toEqual([null, null]);
    expect(assign).toHaveBeenCalledWith(platformLogout(window.location.href));
    expect(reload).not.toHaveBeenCalled();
  });

  it('forwards the return address as given, as the reference does (the platform decides)', () => {
    client().auth.logout('/goodbye?x=1');
    expect(assign).toHaveBeenLastCalledWith(platformLogout('/goodbye?x=1'));
    client().auth.logout('https://elsewhere.example/');
    expect(assign).toHaveBeenLastCalledWith(platformLogout('https://elsewhere.example/'));
  });
});

describe('login redirect', () => {
  it('sends the browser to {appBase}/login with the current absolute address', () => {
    client(null).auth.redirectToLogin();
    expect(assign).toHaveBeenCalledWith(
      `${APP_BASE}/login?from_url=${encodeURIComponent('http://localhost/ComingSoon?tab=1#top')}`,
    );
  });

  it('resolves a same-origin next address to an absolute one', () => {
    expect(client(null).auth.loginUrl('/Other')).toBe(
      `${APP_BASE}/login?from_url=${encodeURIComponent('http://localhost/Other')}`,
    );
  });

  it('forwards another origin as given, as the reference does (the login page decides)', () => {
    expect(client(null).auth.loginUrl('https://elsewhere.example/x')).toBe(
      `${APP_BASE}/login?from_url=${encodeURIComponent('https://elsewhere.example/x')}`,
    );
  });

  it('rejects an address that is no URL with INVALID_ARGUMENT, navigating nowhere', () => {
    const error = (() => {
      try {
        client(null).auth.redirectToLogin('http://[bad');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isPlatformError(error) && error.code).toBe('INVALID_ARGUMENT');
    expect(assign).not.toHaveBeenCalled();
  });

  it('builds a path on the page origin when the client has no app base URL, as the reference does', () => {
    const sameOrigin = createClient({ serverUrl: '', appId: 'coming-soon', token: null });
    expect(sameOrigin.auth.loginUrl()).toBe(
      `/login?from_url=${encodeURIComponent('http://localhost/ComingSoon?tab=1#top')}`,
    );
  });
});

describe('requiresAuth', () => {
  const waitFor = async (check: () => boolean) => {
    for (let tries = 0; tries < 100 && !check(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('sends a signed-out visitor to the login page', async () => {
    server.respond(() => ({ status: 401, body: { message: 'Not signed in' } }));
    createClient({ serverUrl: server.url, appId: APP_ID, appBaseUrl: APP_BASE, token: null, requiresAuth: true });
    await waitFor(() => assign.mock.calls.length > 0);
    expect(assign).toHaveBeenCalledWith(expect.stringMatching(/^https:\/\/apps\.example\/login\?from_url=/));
  });

  it('during an outage logs the failure and keeps the visitor here (isAuthenticated alone would say false)', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.respond(() => ({ status: 503, body: { message: 'Service unavailable' } }));
    const c = createClient({
      serverUrl: server.url,
      appId: APP_ID,
      appBaseUrl: APP_BASE,
      token: 'tok',
      requiresAuth: true,
    });
    await waitFor(() => logged.mock.calls.length > 0);
    expect(logged).toHaveBeenCalledWith('[platform-sdk] the session check failed:', expect.anything());
    expect(assign).not.toHaveBeenCalled();
    expect(await c.auth.isAuthenticated()).toBe(false);
  });
});
