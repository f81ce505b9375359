/**
 * The reference client's public surface, found by walking its object graph (not by a hand list).
 *
 * Entity names, integration packages and actors are dynamic: the reference serves them from proxies
 * with no own keys. Such an object is probed with an arbitrary name (`*` in the path). Names the
 * proxy answers specially (`integrations.Core`, `integrations.custom`) are found by probing the names
 * the reference's own declarations document, and kept only when they differ in shape from `*`.
 */
const ANY_NAME = 'SampleName';
const DOCUMENTED_SPECIAL_NAMES = ['Core', 'custom'];
const MAX_DEPTH = 6;

function shapeOf(value: unknown): string {
  if (typeof value === 'function') return 'function';
  if (typeof value !== 'object' || value === null) return typeof value;
  return `object{${Object.keys(value).sort().join(',')}}`;
}

function walk(value: unknown, path: string, found: Map<string, 'function'>, depth: number): void {
  if (typeof value === 'function') {
    found.set(path, 'function');
    return;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  if (keys.length > 0) {
    for (const key of keys) walk(record[key], path ? `${path}.${key}` : key, found, depth + 1);
    return;
  }
  const generic = record[ANY_NAME];
  if (generic === undefined) return;
  walk(generic, `${path}.*`, found, depth + 1);
  for (const name of DOCUMENTED_SPECIAL_NAMES) {
    const special = record[name];
    if (special !== undefined && shapeOf(special) !== shapeOf(generic))
      walk(special, `${path}.${name}`, found, depth + 1);
  }
}

/** Every method path of a client, e.g. `entities.*.list`, `asServiceRole.sso.getIdToken`. */
export function methodPaths(client: object): string[] {
  const found = new Map<string, 'function'>();
  walk(client, '', found, 0);
  return [...found.keys()].sort();
}

/** The value at a method path of `client` (`*` resolved with an arbitrary name), or undefined. */
export function valueAt(client: object, path: string): unknown {
  let current: unknown = client;
  for (const segment of path.split('.')) {
    if ((typeof current !== 'object' && typeof current !== 'function') || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment === '*' ? ANY_NAME : segment];
  }
  return current;
}
