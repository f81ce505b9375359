/**
 * Small, strict shape checks for data that arrives from another window. Nothing here trusts its
 * input: every helper accepts only exactly the expected type and bounds every length.
 */

import { isPlainObject, type PlainObject } from '@/lib/util';

export { isPlainObject, type PlainObject };

/** Longest selector id we look up (a `path:line:col` or a `data-visual-selector-id` value). */
export const MAX_SELECTOR_ID_LENGTH = 512;
/** Longest class string the editor may apply; far above any real Tailwind class list. */
export const MAX_CLASSES_LENGTH = 4096;
/** Longest text the editor may put into an element, and the longest text we report back. */
export const MAX_CONTENT_LENGTH = 10_000;

// C0 controls and DEL never belong in an id; refusing them keeps ids printable in logs and selectors.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A non-empty, printable id of bounded length. */
export function isSelectorId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_SELECTOR_ID_LENGTH &&
    !CONTROL_CHARACTERS.test(value)
  );
}

export function isBoundedString(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** A finite number within [min, max]. */
export function isNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/** Own data property only: a `__proto__` or getter on the sender's object is never followed. */
export function ownField(object: PlainObject, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

/** `data` of a message, when it is a plain object. */
export function dataOf(message: PlainObject): PlainObject | null {
  const data = ownField(message, 'data');
  return isPlainObject(data) ? data : null;
}

/** `data` of a message that carries nothing: absent, null or a plain object (its fields ignored). */
export function hasNoPayloadOrEmpty(message: PlainObject): boolean {
  const data = ownField(message, 'data');
  return data === undefined || data === null || isPlainObject(data);
}
