import { STORED_PARAM_KEYS, getAppParams, resetAppParams, resolveAppParams } from '@/lib/config/app-params';
import type { BuildEnv } from '@/lib/config/env';

const ENV: BuildEnv = {
  serverUrl: 'https://platform.example',
  appId: 'coming-soon',
  appBaseUrl: 'https://apps.example',
  overrideOrigins: 'https://preview.example, http://127.0.0.1:3001',
};

function visit(pathAndQuery: string): void {
  window.history.replaceState({ router: 'state' }, '', pathAndQuery);
}

beforeEach(() => {
  window.localStorage.clear();
  resetAppParams();
  visit('/');
});

describe('resolveAppParams: sources', () => {
  it('uses the build env when the address bar says nothing', () => {
    expect(resolveAppParams(ENV)).toEqual({
      serverUrl: 'https://platform.example',
      appId: 'coming-soon',
      appBaseUrl: 'https://apps.example',
      token: null,
    });
  });

  it('falls back to the built-in defaults, with the app base defaulting to the server', () => {
    expect(resolveAppParams({})).toEqual({
      serverUrl: 'http://127.0.0.1:3001',
      appId: 'coming-soon',
      appBaseUrl: 'http://127.0.0.1:3001',
      token: null,
    });
  });

  it('lets allowlisted address-bar values override the env and remembers them', () => {
    visit('/?server_url=https://preview.example/&app_id=members-only&app_base_url=http://127.0.0.1:3001');
    expect(resolveAppParams(ENV)).toMatchObject({
      serverUrl: 'https://preview.example',
      appId: 'members-only',
      appBaseUrl: 'http://127.0.0.1:3001',
    });
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.serverUrl)).toBe('https://preview.example');
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.appId)).toBe('members-only');
  });

  it.each([
    ['a foreign origin', 'https://evil.example'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash trick', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,x'],
    ['another port of an allowed host', 'http://127.0.0.1:3002'],
    ['a look-alike host', 'https://preview.example.evil.example'],
    ['credentials naming an allowed host', 'https://preview.example@evil.example'],
  ])('ignores a server_url and app_base_url naming %s', (_label, hostile) => {
    const encoded = encodeURIComponent(hostile);
    visit(`/?server_url=${encoded}&app_base_url=${encoded}`);
    const params = resolveAppParams(ENV);
    expect(params.serverUrl).toBe('https://platform.example');
    expect(params.appBaseUrl).toBe('https://apps.example');
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.serverUrl)).toBeNull();
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.appBaseUrl)).toBeNull();
  });

  it('ignores an app_id that is not a plain identifier', () => {
    visit(`/?app_id=${encodeURIComponent('../admin')}`);
    expect(resolveAppParams(ENV).appId).toBe('coming-soon');
  });

  it('uses remembered overrides when the env sets nothing, but re-checks them against the allowlist', () => {
    const env: BuildEnv = { overrideOrigins: 'https://preview.example' };
    window.localStorage.setItem(STORED_PARAM_KEYS.serverUrl, 'https://preview.example');
    window.localStorage.setItem(STORED_PARAM_KEYS.appId, 'invite-only');
    expect(resolveAppParams(env)).toMatchObject({ serverUrl: 'https://preview.example', appId: 'invite-only' });

    window.localStorage.setItem(STORED_PARAM_KEYS.serverUrl, 'https://evil.example');
    expect(resolveAppParams(env).serverUrl).toBe('http://127.0.0.1:3001');
  });
});

describe('resolveAppParams: access_token', () => {
  it('stores the token under both keys and removes only it from the address bar, keeping history state', () => {
    visit('/ComingSoon?access_token=tok-123&tab=2#section');
    const params = resolveAppParams(ENV);

    expect(params.token).toBe('tok-123');
    expect(window.localStorage.getItem('base44_access_token')).toBe('tok-123');
    expect(window.localStorage.getItem('token')).toBe('tok-123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/ComingSoon?tab=2#section');
    expect(window.history.state).toEqual({ router: 'state' });
  });

  it('reads the stored token when the address bar has none', () => {
    window.localStorage.setItem('base44_access_token', 'stored');
    expect(resolveAppParams(ENV).token).toBe('stored');
  });

  it('strips an empty access_token without storing anything', () => {
    visit('/?access_token=');
    expect(resolveAppParams(ENV).token).toBeNull();
    expect(window.location.search).toBe('');
    expect(window.localStorage.getItem('base44_access_token')).toBeNull();
  });
});

describe('getAppParams', () => {
  it('resolves once per page load, so the stripped token is still known on later calls', () => {
    visit('/?access_token=once');
    const first = getAppParams();
    window.localStorage.clear();
    expect(getAppParams()).toBe(first);
    expect(getAppParams().token).toBe('once');
  });
});
