/**
 * Inclusion projection (`fields=a,b.c`) as MongoDB's find() applies it: a path through an array
 * projects every document in it and drops its non-document elements; a numeric segment is a field
 * name, never a position ("Project Fields to Return from Query": `{ "instock.0": 1 }` does not
 * return the first element). mingo reads `instock.0` as a position, so this small walk replaces it.
 * `id` always comes along; two paths where one is the prefix of the other are refused, as there.
 */

import { isJsonObject } from '../util/json-object';

type AnyRecord = Record<string, unknown>;
/** Field name -> true (take the whole value) or the sub-projection below it. */
type ProjectionTree = Map<string, ProjectionTree | true>;

export class ProjectionCollision extends Error {}

function buildTree(paths: readonly string[]): ProjectionTree {
  const root: ProjectionTree = new Map();
  for (const path of paths) {
    const segments = path.split('.');
    let node = root;
    segments.forEach((segment, at) => {
      const last = at === segments.length - 1;
      const existing = node.get(segment);
      if (last) {
        if (existing !== undefined && existing !== true) throw new ProjectionCollision(`Path collision at ${path}`);
        node.set(segment, true);
        return;
      }
      if (existing === true) throw new ProjectionCollision(`Path collision at ${path}`);
      const child: ProjectionTree = existing ?? new Map();
      node.set(segment, child);
      node = child;
    });
  }
  return root;
}

/** A value below a projected path: documents are projected, arrays element by element, scalars dropped. */
function projectValue(value: unknown, tree: ProjectionTree): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const element of value) {
      if (isJsonObject(element) || Array.isArray(element)) out.push(projectValue(element, tree));
    }
    return out;
  }
  return isJsonObject(value) ? projectDocument(value, tree) : undefined;
}

function projectDocument(document: AnyRecord, tree: ProjectionTree): AnyRecord {
  const out: AnyRecord = {};
  // Stored order, as MongoDB returns fields in the document's order, not the projection's.
  for (const [key, value] of Object.entries(document)) {
    const node = tree.get(key);
    if (node === undefined) continue;
    const projected = node === true ? value : projectValue(value, node);
    if (projected !== undefined) out[key] = projected;
  }
  return out;
}

export function projectFields(records: readonly AnyRecord[], fields: readonly string[]): AnyRecord[] {
  const tree = buildTree(['id', ...fields.filter((field) => field !== 'id')]);
  return records.map((record) => projectDocument(record, tree));
}
