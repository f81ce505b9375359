import * as crypto from 'node:crypto';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { TokenClaims } from '../core/types';

/**
 * Access tokens are HS256 JWTs signed with the store's secret (persisted with a data dir, so tokens
 * survive a restart). They carry the app, the account, the account's token version (bumped on a
 * password change, which revokes older tokens) and an expiry.
 */

export const ACCESS_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function isClaims(value: unknown): value is TokenClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return (
    typeof claims.sub === 'string' &&
    typeof claims.app_id === 'string' &&
    typeof claims.ver === 'number' &&
    typeof claims.iat === 'number' &&
    typeof claims.exp === 'number' &&
    (claims.sid === undefined || typeof claims.sid === 'string')
  );
}

export class TokenSigner {
  constructor(
    private readonly secret: string,
    private readonly nowMs: () => number,
  ) {}

  private signature(input: string): Buffer {
    return createHmac('sha256', this.secret).update(input).digest();
  }

  sign(
    appId: string,
    accountId: string,
    version: number,
    sessionId: string | null = null,
    ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  ): string {
    const iat = Math.floor(this.nowMs() / 1000);
    const claims: TokenClaims = {
      sub: accountId,
      app_id: appId,
      ver: version,
      iat,
      exp: iat + ttlSeconds,
      ...(sessionId === null ? {} : { sid: sessionId }),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${HEADER}.${payload}.${this.signature(`${HEADER}.${payload}`).toString('base64url')}`;
  }

  /**
   * An OpenID-Connect-style ID token (HS256) about a user, for `sso.getIdToken`. It is signed with a
   * key derived for ID tokens only, so it can never pass as an access token (nor the reverse).
   */
  signIdToken(
    claims: { iss: string; aud: string; sub: string; email: string; name: string },
    ttlSeconds = 3600,
  ): string {
    const iat = Math.floor(this.nowMs() / 1000);
    const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds })).toString('base64url');
    const key = createHmac('sha256', this.secret).update('emulator id token key').digest();
    return `${HEADER}.${payload}.${createHmac('sha256', key).update(`${HEADER}.${payload}`).digest('base64url')}`;
  }

  /** The claims of a well-signed, unexpired token; null for anything else. */
  verify(token: string): TokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    if (header !== HEADER || !isCanonicalBase64url(payload)) return null;
    // Compared as text: the one spelling we sign. Node's decoder would also take padding, trailing
    // characters or set unused bits, i.e. other spellings of the same bytes.
    const expected = Buffer.from(this.signature(`${header}.${payload}`).toString('base64url'));
    const actual = Buffer.from(signature);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    } catch {
      return null;
    }
    if (!isClaims(claims)) return null;
    return claims.exp * 1000 > this.nowMs() ? claims : null;
  }
}

/** Base64url as we write it: its alphabet only, no padding, zero unused bits (one spelling per value). */
function isCanonicalBase64url(text: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(text) && Buffer.from(text, 'base64url').toString('base64url') === text;
}

/**
 * Node's one-shot `crypto.hash` (Node 20.12 and later): a third of a createHash object's cost,
 * and every request with a token compares it with the service token. Taken once here: read
 * through the module namespace on every call, it went through an interop getter each time.
 */
const oneShotHash = typeof crypto.hash === 'function' ? crypto.hash : undefined;

const sha256 = (text: string): Buffer =>
  oneShotHash ? oneShotHash('sha256', text, 'buffer') : createHash('sha256').update(text).digest();

/** Constant-time comparison of secrets of any length (hashing first hides the length). */
export function secretsEqual(left: string, right: string): boolean {
  return timingSafeEqual(sha256(left), sha256(right));
}

/** Digests of configured secrets (the apps' service tokens): a handful, so the map stays small. */
const configuredDigests = new Map<string, Buffer>();
const MAX_CONFIGURED_DIGESTS = 256;

/**
 * {@link secretsEqual} for a secret of the configuration, compared with every request that carries a
 * token: its digest is taken once, not per request (the configuration holds the secret itself in
 * memory already). Still one digest of what was presented and a constant-time comparison.
 */
export function equalsConfiguredSecret(presented: string, configured: string): boolean {
  let digest = configuredDigests.get(configured);
  if (!digest) {
    if (configuredDigests.size >= MAX_CONFIGURED_DIGESTS) configuredDigests.clear();
    digest = sha256(configured);
    configuredDigests.set(configured, digest);
  }
  return timingSafeEqual(sha256(presented), digest);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
