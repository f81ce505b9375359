/**
 * The conformance suite in plain Node: our client and the unmodified reference `@base44/sdk` run the
 * shared table against one recording platform, and the reference's surface is checked against ours.
 */
import * as referenceModule from '@base44/sdk';
import { WebSocket as NodeWebSocket } from 'ws';

import * as ourModule from '@/lib/sdk';

import { documentedDeviations } from './deviations';
import { GLOBAL_NORMALISATIONS } from './normalise';
import type { ClientFactory, ConformanceClient } from './observe';
import { declareRows } from './run-table';
import { methodPaths, valueAt } from './surface';
import { NOT_YET_CONFORMANT, TABLE } from './table';

const reference: ClientFactory = (config) =>
  referenceModule.createClient({ analytics: { enabled: false }, ...config }) as ConformanceClient;
const ours: ClientFactory = (config) => ourModule.createClient(config) as unknown as ConformanceClient;
const makers = {
  reference: {
    create: reference,
    fromRequest: (request: Request) => referenceModule.createClientFromRequest(request) as ConformanceClient,
  },
  ours: {
    create: ours,
    fromRequest: (request: Request) => ourModule.createClientFromRequest(request) as unknown as ConformanceClient,
  },
};

beforeAll(() => {
  // Node 20 has no global WebSocket; both clients' actor connections use the global one, as in a browser.
  (globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
  // The reference logs every failed request and socket connect; the rows assert on what matters.
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('the table, in Node', () => {
  declareRows(
    TABLE.filter((row) => row.env !== 'browser'),
    async () => ({ clients: makers }),
  );
});

describe('the surface', () => {
  const config = { serverUrl: 'http://127.0.0.1:9', appId: 'app-1', token: 't', serviceToken: 's' };
  const referencePaths = methodPaths(reference(config));

  it('finds the reference methods by walking its client', () => {
    // A sanity floor: the walk must see the proxies' methods, not just the top level.
    expect(referencePaths).toEqual(
      expect.arrayContaining(['entities.*.list', 'integrations.*.*', 'asServiceRole.sso.getIdToken']),
    );
  });

  it.each(referencePaths.filter((path) => !NOT_YET_CONFORMANT.has(path)))('ours has %s', (path) => {
    expect(typeof valueAt(ours(config), path)).toBe('function');
  });

  it.each(referencePaths.filter((path) => !NOT_YET_CONFORMANT.has(path)))('the table covers %s', (path) => {
    expect(TABLE.some((row) => row.covers.includes(path))).toBe(true);
  });

  it.each(Object.keys(referenceModule).filter((name) => !NOT_YET_CONFORMANT.has(name)))(
    'our package exports %s',
    (name) => {
      expect(typeof (ourModule as Record<string, unknown>)[name]).toBe(
        typeof (referenceModule as Record<string, unknown>)[name],
      );
    },
  );

  it('lists only real reference methods as not yet conformant', () => {
    const exported = Object.keys(referenceModule);
    expect(
      [...NOT_YET_CONFORMANT.keys()].filter((path) => !referencePaths.includes(path) && !exported.includes(path)),
    ).toEqual([]);
  });

  it('every row covers real reference methods', () => {
    const exported = Object.keys(referenceModule);
    const unknown = TABLE.flatMap((row) => row.covers).filter(
      (path) => !referencePaths.includes(path) && !exported.includes(path),
    );
    expect(unknown).toEqual([]);
  });

  it('every documented deviation is claimed by a row (the table stays true)', () => {
    const claimed = new Set([...TABLE.map((row) => row.deviation?.id), ...GLOBAL_NORMALISATIONS.map(({ id }) => id)]);
    expect([...documentedDeviations().keys()].filter((id) => !claimed.has(id))).toEqual([]);
  });
});
