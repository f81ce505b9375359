/**
 * Decides how a request payload goes on the wire: JSON by default, multipart when files are involved.
 */
import { toJson } from './errors';
import { isPlainObject } from './validate';

/** A body ready for fetch, plus the content type to declare (none for multipart: fetch adds the boundary). */
export interface EncodedBody {
  body: string | FormData | undefined;
  contentType: 'application/json' | undefined;
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

function isFormData(value: unknown): value is FormData {
  return typeof FormData !== 'undefined' && value instanceof FormData;
}

/** True when any top-level value of a plain object is a File or Blob. */
export function holdsFiles(payload: unknown): payload is Record<string, unknown> {
  return isPlainObject(payload) && Object.values(payload).some(isBlob);
}

/**
 * Turns an object with top-level files into FormData: files keep their names, objects and arrays
 * (and null) are JSON text, other primitives are String()'d, undefined values are left out.
 */
export function toFormData(payload: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    if (isBlob(value)) {
      const fileName = typeof File !== 'undefined' && value instanceof File ? value.name : 'blob';
      form.append(key, value, fileName);
    } else if (typeof value === 'object') {
      form.append(key, toJson(`The field "${key}"`, value));
    } else {
      form.append(key, String(value));
    }
  }
  return form;
}

/**
 * Encodes a payload. FormData passes through untouched (the reference client rebuilt it and sent an
 * empty body); an object holding files becomes FormData; anything else is JSON.
 */
export function encodeRequestBody(payload: unknown): EncodedBody {
  if (payload === undefined) return { body: undefined, contentType: undefined };
  if (isFormData(payload)) return { body: payload, contentType: undefined };
  if (holdsFiles(payload)) return { body: toFormData(payload), contentType: undefined };
  return { body: toJson('The request body', payload), contentType: 'application/json' };
}
