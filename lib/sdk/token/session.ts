/**
 * The client's user token: held in memory, mirrored to the token store, and dropped the moment the
 * server rejects it (a 401 to a request that carried it) or anyone clears that token from the store
 * (lib/auth after a refused session), so no later request or socket handshake sends a dead token.
 */
import { tokenStore } from './token-store';

/** The client's token state, shared by every module. */
export interface Session {
  getToken(): string | null;
  /**
   * Sets the token for later requests and, unless `persist` is false, stores it. An empty token is
   * ignored, as the reference ignores it (a login answer without a token must not sign anyone out).
   */
  setToken(token: string, persist?: boolean): void;
  /** Forgets the token in the client and in storage. */
  clearToken(): void;
  /**
   * A request carrying `sentAuthorization` was answered 401: forget the token if it is still the one
   * that was sent (a newer token set meanwhile stays).
   */
  rejected(sentAuthorization: string | null): void;
}

export function createSession(initialToken: string | null, onChange: () => void): Session {
  let token = initialToken;
  const session: Session = {
    getToken: () => token,
    setToken(next, persist = true) {
      if (typeof next !== 'string' || next.length === 0) return;
      token = next;
      if (persist) tokenStore.set(next);
      onChange();
    },
    clearToken() {
      token = null;
      tokenStore.clear();
      onChange();
    },
    rejected(sentAuthorization) {
      if (token !== null && sentAuthorization === `Bearer ${token}`) session.clearToken();
    },
  };
  // The store is the owner: when the token this client holds is cleared there, the client lets go
  // too. Only a clear of this very token counts: another client storing or dropping its own token
  // (tests make many clients in one page) must not change this one's.
  tokenStore.onChange((next, previous) => {
    if (next === null && token !== null && previous === token) {
      token = null;
      onChange();
    }
  });
  return session;
}
