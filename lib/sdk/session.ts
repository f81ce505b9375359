/**
 * The client's user token: held in memory, mirrored to storage, and dropped the moment the server
 * rejects it (a 401 to a request that carried it), so no later request sends a dead token.
 */
import { invalidArgument } from './errors';
import { clearStoredToken, storeToken } from './token-store';

/** The client's token state, shared by every module. */
export interface Session {
  getToken(): string | null;
  /** Sets the token for later requests and, unless `persist` is false, stores it. */
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
      if (typeof next !== 'string' || next.length === 0) throw invalidArgument('setToken needs a non-empty token');
      token = next;
      if (persist) storeToken(next);
      onChange();
    },
    clearToken() {
      token = null;
      clearStoredToken();
      onChange();
    },
    rejected(sentAuthorization) {
      if (token !== null && sentAuthorization === `Bearer ${token}`) session.clearToken();
    },
  };
  return session;
}
