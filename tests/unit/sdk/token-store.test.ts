import { ACCESS_TOKEN_KEY, DUPLICATE_TOKEN_KEY, clearStoredToken, readStoredToken, storeToken } from '@/lib/sdk/token-store';

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
