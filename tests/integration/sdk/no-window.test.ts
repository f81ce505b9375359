/**
 * SSR, prerender and Node: no window, no storage. Everything browser-only must degrade quietly.
 */
import { resolveAppParams } from '@/lib/config/app-params';
import { createClient } from '@/lib/sdk/client/create-client';
import { clearStoredToken, readStoredToken, storeToken } from '@/lib/sdk/token/token-store';

describe('without a window', () => {
  it('runs in an environment that really has no window', () => {
    expect(typeof window).toBe('undefined');
  });

  it('the token store reports "no token" and refuses writes instead of throwing', () => {
    expect(readStoredToken()).toBeNull();
    expect(storeToken('abc')).toBe(false);
    expect(clearStoredToken()).toBe(false);
  });

  it("app params come from the env and defaults (the token is the store's business)", () => {
    expect(resolveAppParams({ serverUrl: 'https://platform.example/', appId: 'coming-soon' })).toEqual({
      serverUrl: 'https://platform.example',
      appId: 'coming-soon',
      appBaseUrl: 'https://platform.example',
    });
  });

  it('a client without a token option starts signed out, and setToken works without storage', () => {
    const client = createClient({ serverUrl: 'https://platform.example', appId: 'coming-soon' });
    expect(client.getToken()).toBeNull();
    client.setToken('in-memory');
    expect(client.getToken()).toBe('in-memory');
  });
});
