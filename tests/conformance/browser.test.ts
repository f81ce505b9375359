/**
 * The conformance table's browser rows: both clients in a faithfully stubbed browser (see
 * fake-browser.ts), installed before either client is imported.
 */
import { installFakeBrowser, type FakeBrowser } from './fake-browser';
import type { ConformanceClient, SharedConfig } from './observe';
import { declareRows } from './run-table';
import { TABLE } from './table';

let browser: FakeBrowser;

beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

declareRows(
  TABLE.filter((row) => row.env === 'browser'),
  async () => {
    browser = installFakeBrowser();
    const reference = await import('@base44/sdk');
    const ours = await import('@/lib/sdk');
    const clients = {
      reference: {
        create: (config: SharedConfig) =>
          reference.createClient({ analytics: { enabled: false }, ...config }) as ConformanceClient,
        fromRequest: (request: Request) => reference.createClientFromRequest(request) as ConformanceClient,
      },
      ours: {
        create: (config: SharedConfig) => ours.createClient(config) as unknown as ConformanceClient,
        fromRequest: (request: Request) => ours.createClientFromRequest(request) as unknown as ConformanceClient,
      },
    };
    return { clients, browser };
  },
);

describe('the package token helpers, side by side', () => {
  type Helpers = Pick<
    typeof import('@base44/sdk'),
    'getAccessToken' | 'saveAccessToken' | 'removeAccessToken' | 'getLoginUrl'
  >;

  async function exercise(helpers: Helpers) {
    browser.reset('https://site.example/p?access_token=from-url&x=1');
    const handedOver = helpers.getAccessToken();
    const address = window.location.href;
    const saved = helpers.saveAccessToken('saved', { storageKey: 'custom_key' });
    const stored = helpers.getAccessToken({ storageKey: 'custom_key' });
    const removed = helpers.removeAccessToken({ storageKey: 'custom_key' });
    const loginUrl = helpers.getLoginUrl('/after', { serverUrl: 'https://platform.example', appId: 'app-1' });
    return { handedOver, address, saved, stored, removed, loginUrl, storage: browser.storage.snapshot() };
  }

  it('behave like the reference', async () => {
    const reference = await exercise(await import('@base44/sdk'));
    const ours = await exercise(await import('@/lib/sdk'));
    expect(ours).toEqual(reference);
  });
});
