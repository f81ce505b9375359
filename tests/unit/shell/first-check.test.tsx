/**
 * The runtime's first check, as the visitor and the platform see it: which requests go out, which
 * state the gate gets, and whether the platform client (most of the runtime's code and start-up work)
 * is made at all. A visitor without a token needs only the public settings.
 */
type Testing = typeof import('@testing-library/react/pure');
type Runtime = typeof import('@/components/shell/ShellRuntime');
type Store = typeof import('@/lib/auth/auth-store');
type Platform = typeof import('@/lib/shell/platform');

jest.mock('next/navigation', () => ({ usePathname: () => '/' }));

/** The page's client, standing in for the SDK's: what the client-backed flow calls. */
function fakeClient() {
  return {
    getToken: jest.fn(() => window.localStorage.getItem('base44_access_token')),
    publicSettings: { get: jest.fn(async () => ({ id: 'coming-soon', public_settings: {} })) },
    auth: {
      me: jest.fn(async () => ({ id: 'u1', email: 'user@example.com', role: 'user' })),
      redirectToLogin: jest.fn(),
      logout: jest.fn(),
    },
    appLogs: { logUserInApp: jest.fn(async () => undefined) },
  };
}

jest.mock('@/lib/shell/platform', () => {
  const client = fakeClient();
  return { getPlatformClient: jest.fn(() => client) };
});

const SETTINGS_PATH = '/api/apps/public/prod/public-settings/by-id/';

/** The platform's answers to the settings request, over the global fetch the SDK's transport uses. */
function platformAnswering(answer: () => Promise<Response>) {
  return jest.spyOn(globalThis, 'fetch').mockImplementation(() => answer());
}

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

let act: Testing['act'];
let cleanup: Testing['cleanup'] = () => undefined;

/**
 * A fresh page load: the runtime's modules (and its once-per-load start) anew, with the React and
 * Testing Library of the same module registry.
 */
function loadPage(): {
  store: Store['authStore'];
  getPlatformClient: jest.Mock;
  client: ReturnType<typeof fakeClient>;
} {
  jest.resetModules();
  const testing = jest.requireActual<Testing>('@testing-library/react/pure');
  ({ act, cleanup } = testing);
  const runtime = jest.requireActual<Runtime>('@/components/shell/ShellRuntime');
  const { authStore } = jest.requireActual<Store>('@/lib/auth/auth-store');
  const { getPlatformClient } = jest.requireMock<Platform>('@/lib/shell/platform');
  const mocked = jest.mocked(getPlatformClient);
  testing.render(<runtime.default />);
  return {
    store: authStore,
    getPlatformClient: mocked,
    client: (mocked.getMockImplementation() as unknown as () => ReturnType<typeof fakeClient>)(),
  };
}

/** Lets the runtime's tasks (next-task splits), the requests and their answers run. */
async function settle(): Promise<void> {
  for (let step = 0; step < 10; step += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
afterEach(() => {
  cleanup();
  jest.restoreAllMocks();
});

describe('a visitor without a token', () => {
  it('on a public app: one settings request without Authorization, the page, and no platform client', async () => {
    const fetch = platformAnswering(() => json(200, { id: 'coming-soon', public_settings: {} }));
    const { store, getPlatformClient } = loadPage();
    await settle();

    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toContain(SETTINGS_PATH);
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
    expect(store.get()).toMatchObject({ state: { status: 'unauthenticated' }, checking: false });
    expect(getPlatformClient).not.toHaveBeenCalled();
  });

  it('on a failing platform: the page (an error the gate shows it for), and no platform client', async () => {
    platformAnswering(() => Promise.reject(new TypeError('Failed to fetch')));
    const { store, getPlatformClient } = loadPage();
    await settle();

    expect(store.get()).toMatchObject({ state: { status: 'error', error: { type: 'other' } }, checking: false });
    expect(getPlatformClient).not.toHaveBeenCalled();
  });

  it('on an app that requires sign-in: redirected to the login page by the client, asked once', async () => {
    window.history.replaceState(null, '', '/ComingSoon?tab=2');
    const fetch = platformAnswering(() =>
      json(403, { message: 'You must be logged in', extra_data: { reason: 'auth_required' } }),
    );
    const { store, client } = loadPage();
    await settle();

    expect(client.auth.redirectToLogin).toHaveBeenCalledWith(`${window.location.origin}/ComingSoon?tab=2`);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(client.publicSettings.get).not.toHaveBeenCalled();
    expect(store.get()).toMatchObject({ state: { error: { type: 'auth_required' } }, loginRedirectBlocked: false });
  });

  it('who asks to sign in on a public app gets the client then, and the login redirect', async () => {
    platformAnswering(() => json(200, { id: 'coming-soon', public_settings: {} }));
    const { store, getPlatformClient, client } = loadPage();
    await settle();
    expect(getPlatformClient).not.toHaveBeenCalled();

    const actions = store.whenActions();
    await settle();
    (await actions).navigateToLogin();

    expect(getPlatformClient).toHaveBeenCalled();
    expect(client.auth.redirectToLogin).toHaveBeenCalledWith(`${window.location.origin}/`);
  });
});

describe('a visitor with a token', () => {
  it.each([
    ['stored', () => window.localStorage.setItem('base44_access_token', 'live')],
    ['in the address bar', () => window.history.replaceState(null, '', '/?access_token=handed')],
  ])('%s: the client asks for the settings and the user, as before', async (_where, arrange) => {
    arrange();
    const fetch = platformAnswering(() => json(200, {}));
    const { store, getPlatformClient, client } = loadPage();
    await settle();

    expect(getPlatformClient).toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
    expect(client.publicSettings.get).toHaveBeenCalledTimes(1);
    expect(store.get().checking).toBe(false);
  });
});
