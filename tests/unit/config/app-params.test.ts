import { getAppParams, resetAppParams, resolveAppParams, STORED_PARAM_KEYS } from '@/lib/config/app-params';
import type { BuildEnv } from '@/lib/config/env';
import { tokenStore } from '@/lib/sdk';

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
    });
  });

  it('falls back to the built-in defaults, with the app base defaulting to the server', () => {
    expect(resolveAppParams({})).toEqual({
      serverUrl: 'http://127.0.0.1:3001',
      appId: 'coming-soon',
      appBaseUrl: 'http://127.0.0.1:3001',
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
    ['a path on an allowed origin', 'https://preview.example/evil'],
    ['a query on an allowed origin', 'https://preview.example/?x=1'],
    ['a fragment on an allowed origin', 'https://preview.example/#x'],
    ['credentials on an allowed origin', 'https://user:pw@preview.example'],
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

describe('resolveAppParams: remembered overrides', () => {
  // docs/DEPLOY.md's example configures the server only; the login page then defaults to it.
  const SERVER_ONLY: BuildEnv = { serverUrl: 'https://platform.example', overrideOrigins: 'https://preview.example' };

  it('never lets a remembered login page outrank a build that configures its server', () => {
    window.localStorage.setItem(STORED_PARAM_KEYS.appBaseUrl, 'https://preview.example');
    expect(resolveAppParams(SERVER_ONLY).appBaseUrl).toBe('https://platform.example');
  });

  it('never lets a remembered server outrank the configured one', () => {
    window.localStorage.setItem(STORED_PARAM_KEYS.serverUrl, 'https://preview.example');
    expect(resolveAppParams(SERVER_ONLY).serverUrl).toBe('https://platform.example');
    expect(resolveAppParams(ENV).serverUrl).toBe('https://platform.example');
  });

  it('uses a remembered login page when the build configures neither server nor login page', () => {
    window.localStorage.setItem(STORED_PARAM_KEYS.appBaseUrl, 'https://preview.example');
    expect(resolveAppParams({ overrideOrigins: 'https://preview.example' }).appBaseUrl).toBe('https://preview.example');
  });

  it('follows a server override from the address bar with the login page of a server-only build', () => {
    visit('/?server_url=https://preview.example');
    expect(resolveAppParams(SERVER_ONLY)).toMatchObject({
      serverUrl: 'https://preview.example',
      appBaseUrl: 'https://preview.example',
    });
  });

  it.each([
    ['a path (remembered by an earlier version)', 'http://127.0.0.1:3001/evil'],
    ['a query', 'http://127.0.0.1:3001/?x=1'],
    ['a foreign origin', 'https://evil.example'],
    ['garbage', 'not a url'],
  ])('drops a remembered server and login page with %s', (_label, stored) => {
    window.localStorage.setItem(STORED_PARAM_KEYS.serverUrl, stored);
    window.localStorage.setItem(STORED_PARAM_KEYS.appBaseUrl, stored);
    expect(resolveAppParams({})).toMatchObject({
      serverUrl: 'http://127.0.0.1:3001',
      appBaseUrl: 'http://127.0.0.1:3001',
    });
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.serverUrl)).toBeNull();
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.appBaseUrl)).toBeNull();
  });

  it('drops a remembered app id that is not a plain identifier', () => {
    window.localStorage.setItem(STORED_PARAM_KEYS.appId, '../admin');
    expect(resolveAppParams({}).appId).toBe('coming-soon');
    expect(window.localStorage.getItem(STORED_PARAM_KEYS.appId)).toBeNull();
  });
});

describe('resolveAppParams: access_token', () => {
  it('leaves the token to the SDK token store: config neither stores nor strips it', () => {
    visit('/ComingSoon?access_token=tok-123&tab=2');
    const params = resolveAppParams(ENV);

    expect(params).not.toHaveProperty('token');
    expect(tokenStore.get()).toBeNull();
    expect(window.location.search).toBe('?access_token=tok-123&tab=2');
  });
});

describe('getAppParams', () => {
  it('resolves once per page load: later calls neither re-read the address bar nor storage', () => {
    visit('/?app_id=first-app');
    const first = getAppParams();
    expect(first.appId).toBe('first-app');
    window.localStorage.setItem(STORED_PARAM_KEYS.appId, 'other-app');
    visit('/?app_id=later-app');
    expect(getAppParams()).toBe(first);
    expect(getAppParams().appId).toBe('first-app');
  });
});
