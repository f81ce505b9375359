/**
 * @jest-environment ./tests/support/jsdom-with-node-fetch.cjs
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
// A page (jsdom) against the real emulator; Node export conditions so socket.io-client uses `ws`
// (see tests/integration/data/live-entity-list.test.tsx).
/**
 * The user token has one owner, the SDK's token store (issue 15). Followed end to end the way the
 * site runs it: `?access_token=` in the address bar → lib/config hands it to the store (and strips
 * it) → the page's one client (lib/shell/platform) starts with the store's token → `Authorization`
 * header and the socket handshake query. A clear through the store (what lib/auth does after a
 * refused session) reaches the client too: the next request and handshake carry no token.
 */
import { SEEDED_ACCOUNTS } from '@/tests/support/emulator';
import { APP, emulatorWithClients } from '@/tests/support/emulator-clients';

import { eventually } from './harness';
import { serverEvents } from './server-observer';

jest.mock('socket.io', () =>
  jest.requireActual<typeof import('./server-observer')>('./server-observer').recordingSocketIo(),
);

type Shell = typeof import('@/lib/shell/platform');
type Sdk = typeof import('@/lib/sdk');

const suite = emulatorWithClients();
const sentAuthorization: (string | null)[] = [];
const realFetch = globalThis.fetch;

beforeAll(() => {
  process.env.NEXT_PUBLIC_PLATFORM_SERVER_URL = suite.platform.url;
  process.env.NEXT_PUBLIC_PLATFORM_APP_ID = APP;
});
afterAll(() => {
  delete process.env.NEXT_PUBLIC_PLATFORM_SERVER_URL;
  delete process.env.NEXT_PUBLIC_PLATFORM_APP_ID;
});
beforeEach(() => {
  window.localStorage.clear();
  sentAuthorization.length = 0;
  // Every request the page makes, as sent: the Authorization header it carried (null: none).
  globalThis.fetch = (input, init) => {
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    if (init?.headers) new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    sentAuthorization.push(headers.get('authorization'));
    return realFetch(input, init);
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

/** A fresh page load: new module instances (config memo, token store, the page's client). */
async function loadPage(address: string): Promise<{ shell: Shell; sdk: Sdk }> {
  window.history.replaceState(null, '', address);
  let loaded: { shell: Shell; sdk: Sdk } | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = { shell: await import('@/lib/shell/platform'), sdk: await import('@/lib/sdk') };
  });
  if (!loaded) throw new Error('the page modules did not load');
  return loaded;
}

const handshakes = () => serverEvents({ kind: 'handshake' });

it('a token from the address bar reaches the Authorization header and the socket handshake through the store', async () => {
  const { shell, sdk } = await loadPage(`/ComingSoon?access_token=${suite.userToken}&tab=2`);
  const before = handshakes().length;
  const client = shell.getPlatformClient();
  try {
    expect(window.location.search).toBe('?tab=2');
    expect(sdk.tokenStore.get()).toBe(suite.userToken);
    expect(client.getToken()).toBe(suite.userToken);

    await expect(client.auth.me()).resolves.toMatchObject({ email: SEEDED_ACCOUNTS.user.email });
    expect(sentAuthorization).toEqual([`Bearer ${suite.userToken}`]);

    client.entity('TokenOwnerFeed').subscribe(() => undefined);
    await eventually(() => handshakes().length > before, 'the handshake');
    const handshake = handshakes()[before];
    expect(handshake?.token).toBe(suite.userToken);
    expect(handshake?.url).toContain(`token=${encodeURIComponent(suite.userToken)}`);
    expect(handshake?.url).not.toContain('anonymous_id');
  } finally {
    client.cleanup();
  }
});

it('a clear through the store (as lib/auth does) drops the token from the client, its requests and its handshake', async () => {
  const { shell, sdk } = await loadPage(`/?access_token=${suite.userToken}`);
  const client = shell.getPlatformClient();
  try {
    client.entity('TokenOwnerCleared').subscribe(() => undefined);
    await eventually(
      () => serverEvents({ kind: 'connect' }).some((event) => event.token === suite.userToken),
      'the signed-in socket',
    );
    const before = handshakes().length;

    sdk.tokenStore.clear();

    expect(client.getToken()).toBeNull();
    // The socket reconnects at once, anonymously.
    await eventually(() => handshakes().length > before, 'the new handshake');
    const reconnect = handshakes()[before];
    expect(reconnect?.token).toBeUndefined();
    expect(reconnect?.url).toContain('anonymous_id=');
    await client.publicSettings.get();
    expect(sentAuthorization.at(-1)).toBeNull();
  } finally {
    client.cleanup();
  }
});

it('with storage blocked, a token from the address bar still reaches the header (and leaves the address bar)', async () => {
  jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('blocked', 'SecurityError');
  });
  const { shell, sdk } = await loadPage(`/?access_token=${suite.userToken}`);
  const client = shell.getPlatformClient();
  try {
    expect(window.location.search).toBe('');
    expect(sdk.tokenStore.get()).toBeNull();
    await expect(client.auth.me()).resolves.toMatchObject({ email: SEEDED_ACCOUNTS.user.email });
    expect(sentAuthorization).toEqual([`Bearer ${suite.userToken}`]);
  } finally {
    client.cleanup();
  }
});
