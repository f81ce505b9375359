import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

import { invalidInput } from '../core/errors';

/**
 * Passwords are stored as `scrypt$N$r$p$salt$hash` and compared in constant time. Verifying against
 * a missing hash still runs scrypt, so "no such account" and "wrong password" take the same time.
 */

const COST = 16_384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: COST, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, cost, blockSize, parallelism, saltText, keyText] = (stored ?? (await DUMMY_HASH)).split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await derive(password, Buffer.from(saltText, 'base64url'), {
    N: Number(cost),
    r: Number(blockSize),
    p: Number(parallelism),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== null;
}

/**
 * Seeded accounts all share one publicly printed password. Hashing it once per process (all seeded
 * accounts then share that one salted hash) keeps emulator start-up fast in big test suites; real
 * registrations and password changes always get their own salt.
 */
const seedHashes = new Map<string, Promise<string>>();
export function hashSeedPassword(password: string): Promise<string> {
  let hash = seedHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    seedHashes.set(password, hash);
  }
  return hash;
}

export function requireNewPassword(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalidInput(`${field} must be a string`, 'invalid_password');
  if (value.length < MIN_PASSWORD_LENGTH) {
    throw invalidInput(`${field} must have at least ${MIN_PASSWORD_LENGTH} characters`, 'weak_password');
  }
  if (value.length > MAX_PASSWORD_LENGTH) {
    throw invalidInput(`${field} may have at most ${MAX_PASSWORD_LENGTH} characters`, 'invalid_password');
  }
  return value;
}
