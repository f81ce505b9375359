/**
 * Argument checks that run before any request is sent, so bad input fails fast with a clear message
 * and nothing reaches the network.
 */
import { isPlainObject } from '../../util';
import { invalidArgument } from './errors';

export { isPlainObject };

const MAX_DESCRIBED_LENGTH = 100;

/** A short human-readable rendering of a rejected value for error messages. */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    // Strings are shown as given, matching the reference client's messages.
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    // Cycles and BigInt make JSON.stringify throw.
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_DESCRIBED_LENGTH ? `${text.slice(0, MAX_DESCRIBED_LENGTH)}...` : text;
}

/** What integrations and functions accept: named parameters, or a FormData built by the caller. */
export type NamedParams = Record<string, unknown> | FormData;

function isFormData(value: unknown): value is FormData {
  return typeof FormData !== 'undefined' && value instanceof FormData;
}

/**
 * Checks that `params` is an object of named parameters (docs/SPEC.md section 5). An omitted argument counts
 * as no parameters and becomes `{}`.
 *
 * @param kind - "Integration" or "Function", the first word of the message.
 * @param name - The endpoint or function name, as the caller wrote it.
 */
export function assertNamedParams(kind: 'Integration' | 'Function', name: string, params: unknown): NamedParams {
  if (params === undefined) return {};
  if (isPlainObject(params) || isFormData(params)) return params;
  throw invalidArgument(
    `${kind} ${name} must receive an object with named parameters, received: ${describeValue(params)}`,
  );
}

/**
 * Checks one value that becomes a URL path segment (entity name, record id, function name...).
 *
 * Encoding alone is not enough: the URL parser resolves "." and ".." (and their %2e spellings) as
 * dot-segments, so an id of ".." would silently address the parent collection.
 */
/** `value` when it is a non-empty string (a form field the platform requires); else INVALID_ARGUMENT naming `label`. */
export function requireText(label: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidArgument(`${label} must be a non-empty string`);
  return value;
}

export function assertPathSegment(label: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidArgument(`${label} must be a non-empty string, received: ${describeValue(value)}`);
  }
  if (value === '.' || value === '..') {
    throw invalidArgument(`${label} must not be "${value}"`);
  }
  return value;
}

/**
 * Builds an API path, URL-encoding every interpolated value as one path segment after checking it
 * with {@link assertPathSegment}. Usage: apiPath`/apps/${appId}/entities/${name}`.
 */
export function apiPath(strings: TemplateStringsArray, ...segments: string[]): string {
  let path = strings[0] ?? '';
  segments.forEach((segment, index) => {
    path += encodeURIComponent(assertPathSegment('Path segment', segment)) + (strings[index + 1] ?? '');
  });
  return path;
}

/**
 * The name a dynamic proxy (`entities.X`, `integrations.P.E`) should serve, or undefined for keys that
 * tooling probes on every object: symbols, `then` (promise detection) and `_`-prefixed internals.
 */
export function proxyKey(property: string | symbol): string | undefined {
  return typeof property === 'string' && property !== 'then' && !property.startsWith('_') ? property : undefined;
}
