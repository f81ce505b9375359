/**
 * The conformance table's browser rows: both clients in a faithfully stubbed browser (see
 * fake-browser.ts), installed before either client is imported.
 */
import { installFakeBrowser, type FakeBrowser } from './fake-browser';
import type { ClientFactory, ConformanceClient } from './observe';
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
    const clients: { reference: ClientFactory; ours: ClientFactory } = {
      reference: (config) => reference.createClient({ analytics: { enabled: false }, ...config }) as ConformanceClient,
      ours: (config) => ours.createClient(config) as unknown as ConformanceClient,
    };
    return { clients, browser };
  },
);
