import {
  ACCESS_TOKEN_KEY,
  clearStoredToken,
  DUPLICATE_TOKEN_KEY,
  readStoredToken,
  startupToken,
  storeToken,
  tokenStore,
} from '@/lib/sdk/token/token-store';

describe('token store (browser)', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => jest.restoreAllMocks());

  it('stores the token under the access-token key and the duplicate key "token"', () => {
    expect(storeToken('abc')).toBe(true);
    expect(window.localStorage.getItem('base44_access_token')).toBe('abc');
    expect(window.localStorage.getItem('token')).toBe('abc');
    expect(readStoredToken()).toBe('abc');
  });

  it('reads the duplicate key when only the platform SDK wrote it', () => {
    window.localStorage.setItem(DUPLICATE_TOKEN_KEY, 'from-platform');
    expect(readStoredToken()).toBe('from-platform');
  });

  it('clears both keys', () => {
    storeToken('abc');
    expect(clearStoredToken()).toBe(true);
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(DUPLICATE_TOKEN_KEY)).toBeNull();
    expect(readStoredToken()).toBeNull();
  });

  it('refuses to store an empty token', () => {
    expect(storeToken('')).toBe(false);
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('degrades to "no token" when storage throws (private mode, sandboxed frame)', () => {
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    jest.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(readStoredToken()).toBeNull();
    expect(storeToken('abc')).toBe(false);
    expect(clearStoredToken()).toBe(false);
  });
});

describe('token store: the one owner', () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => {
    jest.restoreAllMocks();
    tokenStore.clear();
  });

  it('tells listeners the new token and the one stored before', () => {
    const changes: [string | null, string | null][] = [];
    const stop = tokenStore.onChange((token, previous) => changes.push([token, previous]));
    tokenStore.set('first');
    tokenStore.set('second');
    tokenStore.clear();
    stop();
    tokenStore.set('unheard');
    expect(changes).toEqual([
      ['first', null],
      ['second', 'first'],
      [null, 'second'],
    ]);
  });

  it('starts with the address-bar token over the stored one, and strips it keeping everything else', () => {
    tokenStore.set('stored');
    window.history.replaceState({ router: 'state' }, '', '/ComingSoon?access_token=handed&tab=2#part');
    expect(startupToken()).toBe('handed');
    expect(tokenStore.get()).toBe('handed');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/ComingSoon?tab=2#part');
    expect(window.history.state).toEqual({ router: 'state' });
    expect(startupToken()).toBe('handed');
  });

  it('strips the token on a path that starts with "//" without leaving the origin', () => {
    window.history.replaceState(null, '', `${window.location.origin}//evil.example/x?access_token=tok&keep=1`);
    expect(startupToken()).toBe('tok');
    expect(window.location.href).toBe(`${window.location.origin}//evil.example/x?keep=1`);
  });

  it('strips an empty access_token without storing anything', () => {
    window.history.replaceState(null, '', '/?access_token=');
    expect(startupToken()).toBeNull();
    expect(window.location.search).toBe('');
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('starts with a stored token without writing it again, unless only one key holds it', () => {
    tokenStore.set('stored');
    const setItem = jest.spyOn(Storage.prototype, 'setItem');
    expect(startupToken()).toBe('stored');
    expect(setItem).not.toHaveBeenCalled();
    // As the reference: the two keys are kept in step.
    window.localStorage.removeItem(DUPLICATE_TOKEN_KEY);
    expect(startupToken()).toBe('stored');
    expect(window.localStorage.getItem(DUPLICATE_TOKEN_KEY)).toBe('stored');
  });

  it('keeps a handed-over token for this page load when storage is blocked, until it is cleared', () => {
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    window.history.replaceState(null, '', '/?access_token=unstored');
    expect(startupToken()).toBe('unstored');
    expect(window.location.search).toBe('');
    expect(startupToken()).toBe('unstored');
    tokenStore.clear();
    expect(startupToken()).toBeNull();
  });
});
