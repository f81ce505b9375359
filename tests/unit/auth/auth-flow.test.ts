import { createAuthFlow, loginReturnUrl } from '@/lib/auth/auth-flow';
import { authStore } from '@/lib/auth/auth-store';
import { isLoginRedirectLooping, noteLoginRedirect } from '@/lib/auth/login-loop-guard';

type FlowClient = Parameters<typeof createAuthFlow>[0];

/** A platform answering like the real one: settings, then the user or a 401 for a dead token. */
function platform(me: () => Promise<{ id: string; email: string; role: string }>) {
  const redirects: string[] = [];
  const client = {
    getToken: () => window.localStorage.getItem('base44_access_token'),
    publicSettings: { get: jest.fn(async () => ({ id: 'coming-soon', public_settings: {} })) },
    auth: {
      me: jest.fn(me),
      redirectToLogin: jest.fn((fromUrl: string) => void redirects.push(fromUrl)),
      logout: jest.fn(),
      setToken: jest.fn(),
    },
  };
  return { client, redirects };
}

const rejected = () =>
  Promise.reject(Object.assign(new Error('The access token is invalid or has expired'), { status: 401 }));

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  authStore.reset();
  window.history.replaceState(null, '', '/');
});

describe('the auth flow and the token', () => {
  it('drops a rejected token from storage, never stores one back, and redirects without a token in from_url', async () => {
    window.localStorage.setItem('base44_access_token', 'dead');
    window.localStorage.setItem('token', 'dead');
    window.history.replaceState(null, '', '/ComingSoon?access_token=dead&tab=2');
    const { client, redirects } = platform(rejected);
    const setItem = jest.spyOn(Storage.prototype, 'setItem');

    await createAuthFlow(client as unknown as FlowClient).checkAppState();

    expect(window.localStorage.getItem('base44_access_token')).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(setItem.mock.calls.filter(([, value]) => value === 'dead')).toEqual([]);
    expect(client.auth.setToken).not.toHaveBeenCalled();
    expect(redirects).toEqual([`${window.location.origin}/ComingSoon?tab=2`]);
    expect(authStore.get().state).toMatchObject({ status: 'error', error: { type: 'auth_required' } });
    setItem.mockRestore();
  });

  it('keeps an accepted token where it is', async () => {
    window.localStorage.setItem('base44_access_token', 'live');
    const { client, redirects } = platform(async () => ({ id: 'u1', email: 'user@example.com', role: 'user' }));
    await createAuthFlow(client as unknown as FlowClient).checkAppState();
    expect(window.localStorage.getItem('base44_access_token')).toBe('live');
    expect(redirects).toEqual([]);
    expect(authStore.get().state.status).toBe('authenticated');
  });
});

describe('loginReturnUrl', () => {
  it.each([
    ['http://127.0.0.1:3000/?access_token=t', 'http://127.0.0.1:3000/'],
    ['http://127.0.0.1:3000/Kontakt?a=1&access_token=t&access_token=u#x', 'http://127.0.0.1:3000/Kontakt?a=1#x'],
    ['http://127.0.0.1:3000//evil.example/x?access_token=t', 'http://127.0.0.1:3000//evil.example/x'],
  ])('%s -> %s', (href, expected) => {
    expect(loginReturnUrl(href)).toBe(expected);
  });
});

describe('logout stays on this site', () => {
  it('passes a same-origin return address on, absolute', () => {
    const { client } = platform(rejected);
    createAuthFlow(client as unknown as FlowClient).logout('/bye?x=1');
    expect(client.auth.logout).toHaveBeenCalledWith(`${window.location.origin}/bye?x=1`);
  });

  it.each(['https://evil.example/phish', '//evil.example', '/\\evil.example', 'javascript:alert(1)'])(
    'never hands the SDK (which forwards as given) the foreign address %p: the visitor returns here',
    (target) => {
      const { client } = platform(rejected);
      createAuthFlow(client as unknown as FlowClient).logout(target);
      expect(client.auth.logout).toHaveBeenCalledWith(undefined);
    },
  );
});

describe('the login loop guard and a returned token', () => {
  const notRegistered = () =>
    Promise.reject(
      Object.assign(new Error('You are not registered'), {
        status: 403,
        data: { extra_data: { reason: 'user_not_registered' } },
      }),
    );

  it('a token that came back from the login page but ended in "not registered" clears the note', async () => {
    noteLoginRedirect();
    window.localStorage.setItem('base44_access_token', 'fresh');
    const { client } = platform(async () => ({ id: 'u1', email: 'outsider@example.com', role: 'user' }));
    client.publicSettings.get.mockImplementation(notRegistered);
    await createAuthFlow(client as unknown as FlowClient).checkAppState();
    expect(authStore.get().state).toMatchObject({ status: 'error', error: { type: 'user_not_registered' } });
    expect(isLoginRedirectLooping()).toBe(false);

    // So the next login redirect in this tab (e.g. after signing out) redirects.
    window.localStorage.clear();
    const next = platform(rejected);
    next.client.publicSettings.get.mockImplementation(() =>
      Promise.reject(
        Object.assign(new Error('Login required'), { status: 403, data: { extra_data: { reason: 'auth_required' } } }),
      ),
    );
    await createAuthFlow(next.client as unknown as FlowClient).checkAppState();
    expect(next.redirects).toHaveLength(1);
    expect(authStore.get().loginRedirectBlocked).toBe(false);
  });

  it('a refused token keeps the note, so a failing login round trip is not repeated', async () => {
    noteLoginRedirect();
    window.localStorage.setItem('base44_access_token', 'dead');
    const { client, redirects } = platform(rejected);
    await createAuthFlow(client as unknown as FlowClient).checkAppState();
    expect(redirects).toEqual([]);
    expect(authStore.get().loginRedirectBlocked).toBe(true);
  });
});
