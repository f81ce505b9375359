import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of private-file URLs (`Core.CreateFileSignedUrl`). A URL's `token` is
 * `{expiry}.{signature}`: the expiry in Unix seconds and an HMAC-SHA256 over the app, the file and
 * that expiry, under a key derived from the store's secret for this purpose only (so no signed URL
 * passes as an access token, nor the reverse; with a data dir it survives restarts as tokens do).
 * Changing the app, the file or the expiry breaks the signature.
 */

/** The platform's default lifetime of a signed URL (@base44/sdk's `CreateFileSignedUrlParams.expires_in`). */
export const DEFAULT_SIGNED_URL_SECONDS = 300;
/** The longest lifetime a signed URL may ask for: a week. */
export const MAX_SIGNED_URL_SECONDS = 7 * 24 * 60 * 60;

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

const TOKEN = /^(\d{1,12})\.([a-f0-9]{64})$/;

export class FileUrlSigner {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly nowMs: () => number,
  ) {
    this.key = createHmac('sha256', secret).update('emulator private file url key').digest();
  }

  private signature(appId: string, fileId: string, expiresAt: number): Buffer {
    return createHmac('sha256', this.key).update(`${appId}\n${fileId}\n${expiresAt}`).digest();
  }

  /** A token for the file, valid for `seconds` from now. */
  sign(appId: string, fileId: string, seconds: number): string {
    const expiresAt = Math.floor(this.nowMs() / 1000) + seconds;
    return `${expiresAt}.${this.signature(appId, fileId, expiresAt).toString('hex')}`;
  }

  /** Whether `token` was signed here for this app and file, and has not expired. */
  check(appId: string, fileId: string, token: string): SignatureCheck {
    const match = TOKEN.exec(token);
    if (!match) return 'invalid';
    const expiresAt = Number(match[1]);
    const given = Buffer.from(match[2] as string, 'hex');
    if (!timingSafeEqual(given, this.signature(appId, fileId, expiresAt))) return 'invalid';
    return expiresAt * 1000 <= this.nowMs() ? 'expired' : 'valid';
  }
}
