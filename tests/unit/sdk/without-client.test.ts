/**
 * The SDK's second entry (lib/sdk/without-client.ts): what a page without a token uses instead of a
 * client. The settings request must be the one a client without a token sends, and asking whether a
 * client would start with a token must change nothing.
 */
import { createClient } from '@/lib/sdk';
import { fetchPublicSettings, hasStartupToken } from '@/lib/sdk/without-client';

const OPTIONS = { serverUrl: 'https://platform.example/', appId: 'coming-soon' };

function recordingFetch() {
  return jest.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ id: 'coming-soon', public_settings: {} }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
}

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('fetchPublicSettings', () => {
  it('sends what a client without a token sends for its settings, and answers the same', async () => {
    const alone = recordingFetch();
    const viaClient = recordingFetch();
    const answer = await fetchPublicSettings({ ...OPTIONS, fetch: alone }, { timeout: 1000 });
    const clientAnswer = await createClient({ ...OPTIONS, token: null, fetch: viaClient }).publicSettings.get();

    expect(answer).toEqual(clientAnswer);
    const [url, init] = alone.mock.calls[0] ?? [];
    const [clientUrl, clientInit] = viaClient.mock.calls[0] ?? [];
    expect(String(url)).toBe(String(clientUrl));
    expect(String(url)).toBe('https://platform.example/api/apps/public/prod/public-settings/by-id/coming-soon');
    expect(Object.fromEntries(new Headers(init?.headers))).toEqual(
      Object.fromEntries(new Headers(clientInit?.headers)),
    );
  });

  it('never sends a stored token', async () => {
    window.localStorage.setItem('base44_access_token', 'stored');
    const fetch = recordingFetch();
    await fetchPublicSettings({ ...OPTIONS, fetch });
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
  });

  it('refuses a server address a client would refuse, before any request', () => {
    const fetch = recordingFetch();
    expect(() => fetchPublicSettings({ serverUrl: 'ftp://platform.example', appId: 'x', fetch })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('hasStartupToken', () => {
  it.each([
    ['nothing', false, () => undefined],
    ['a stored token', true, () => window.localStorage.setItem('base44_access_token', 't')],
    ['one under the duplicate key only', true, () => window.localStorage.setItem('token', 't')],
    ['one in the address bar', true, () => window.history.replaceState(null, '', '/ComingSoon?access_token=t&x=1')],
    [
      'an empty one in the address bar (a client would strip it)',
      true,
      () => window.history.replaceState(null, '', '/?access_token='),
    ],
  ])('%s: %p, and it takes, stores and strips nothing', (_what, expected, arrange) => {
    arrange();
    const address = window.location.href;
    const stored = JSON.stringify({ ...window.localStorage });
    expect(hasStartupToken()).toBe(expected);
    expect(window.location.href).toBe(address);
    expect(JSON.stringify({ ...window.localStorage })).toBe(stored);
  });
});
