import { randomBytes } from 'node:crypto';

/** 24 hex characters, like the platform's ids. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}
