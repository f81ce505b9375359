/**
 * The address-bar token on its way to the page's one client: taken from the address once (one
 * rewrite of the address) and stored once (one write per key, one change event), by the SDK's token
 * store, as lib/shell/platform creates the client. Config (lib/config) does not touch it.
 */
import { ACCESS_TOKEN_KEY, DUPLICATE_TOKEN_KEY } from '@/lib/sdk';

type Shell = typeof import('@/lib/shell/platform');
type Sdk = typeof import('@/lib/sdk');

beforeEach(() => {
  jest.resetModules();
  window.localStorage.clear();
  window.history.replaceState({ router: 'state' }, '', '/ComingSoon?access_token=handed&tab=2#part');
});
afterEach(() => jest.restoreAllMocks());

it('takes the address-bar token once and writes it once on the way into the client', () => {
  const setItem = jest.spyOn(Storage.prototype, 'setItem');
  const replaceState = jest.spyOn(window.history, 'replaceState');
  const { tokenStore } = jest.requireActual<Sdk>('@/lib/sdk');
  const changes: (string | null)[] = [];
  tokenStore.onChange((token) => changes.push(token));

  const client = jest.requireActual<Shell>('@/lib/shell/platform').getPlatformClient();

  expect(client.getToken()).toBe('handed');
  expect(replaceState).toHaveBeenCalledTimes(1);
  expect(window.location.pathname + window.location.search + window.location.hash).toBe('/ComingSoon?tab=2#part');
  const writes = (key: string) => setItem.mock.calls.filter(([name]) => name === key).map(([, value]) => value);
  expect(writes(ACCESS_TOKEN_KEY)).toEqual(['handed']);
  expect(writes(DUPLICATE_TOKEN_KEY)).toEqual(['handed']);
  expect(changes).toEqual(['handed']);
});
