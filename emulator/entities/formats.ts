import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';

/**
 * The string formats the platform documents for entity fields (docs.base44.com, Entities → schema
 * structure: date, date-time, time, email, uri, hostname, ipv4, ipv6, uuid), with JSON Schema's
 * meaning. The checks are zod's and Node's, not our own regular expressions.
 */

const date = z.iso.date();
// A date and a time of day, with an offset (RFC 3339: Z or ±hh:mm) or without one: a `datetime-local`
// input gives `2026-11-25T10:00`, and the platform's own backends write `2026-11-25T10:00:00.622000`
// (the vendor's `base44 dev` stores its users' dates so). Seconds and fractions are optional.
const dateTime = z.iso.datetime({ offset: true, local: true });
const time = z.iso.time();
const email = z.email();
const hostname = z.hostname();
// Any 8-4-4-4-12 hex string, as JSON Schema's "uuid" (zod's z.uuid() also demands an RFC variant).
const uuid = z.guid();
const TIME_OFFSET = /(?:Z|[+-]\d{2}:\d{2})$/i;

const CHECKS: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ['date', (value: string) => date.safeParse(value).success],
  ['date-time', (value: string) => dateTime.safeParse(value).success],
  // RFC 3339 full-time may carry an offset; zod's time check takes the partial time before it.
  ['time', (value: string) => time.safeParse(value.replace(TIME_OFFSET, '')).success],
  ['email', (value: string) => email.safeParse(value).success],
  // An absolute URI: a scheme and whatever the WHATWG parser accepts after it.
  ['uri', (value: string) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) && URL.canParse(value)],
  ['hostname', (value: string) => hostname.safeParse(value).success],
  ['ipv4', (value: string) => isIPv4(value)],
  ['ipv6', (value: string) => isIPv6(value)],
  ['uuid', (value: string) => uuid.safeParse(value).success],
]);

export const STRING_FORMATS: readonly string[] = [...CHECKS.keys()];

export function isKnownFormat(format: string): boolean {
  return CHECKS.has(format);
}

/** Whether `value` has `format`; an unknown format (refused when files load) checks nothing. */
export function hasFormat(format: string, value: string): boolean {
  return CHECKS.get(format)?.(value) ?? true;
}
