/**
 * True for a value that is an object and not an array: what `JSON.parse` gives for `{...}`. It does
 * not look at the prototype (parsed JSON always has Object's), so unlike lib/util's `isPlainObject`,
 * which the site uses for data whose origin it does not know, it also accepts class instances and
 * module namespaces. The emulator's one check of this kind (body parser, routes, store).
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
