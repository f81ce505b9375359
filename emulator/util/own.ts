/**
 * Lookups in objects keyed by user input (ids, e-mails, ticket hashes). Only the object's own
 * properties count: a key such as `__proto__`, `constructor` or one planted on `Object.prototype`
 * by a pollution bug elsewhere must never resolve to an inherited value.
 */
export function ownValue<T>(map: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  if (map === undefined || !Object.prototype.hasOwnProperty.call(map, key)) return undefined;
  return map[key];
}

/** An empty object without a prototype, for maps built here from user-supplied keys. */
export function nullPrototypeMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
