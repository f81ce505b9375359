/**
 * The layers the layer menu offers for a selected element: its annotated ancestors (two levels),
 * siblings and descendants (two levels), as the reference agent's layer dropdown lists them.
 */
import { reportedTagName } from './describe';
import { SELECTOR_ID_ATTRIBUTE, selectorIdOf, SOURCE_LOCATION_ATTRIBUTE } from './selection';

const MAX_ANCESTORS = 2;
const MAX_DESCENDANT_LEVELS = 2;

export interface Layer {
  element: Element;
  tagName: string;
  depth: number;
}

function isAnnotated(element: Element): boolean {
  return element.hasAttribute(SOURCE_LOCATION_ATTRIBUTE) || element.hasAttribute(SELECTOR_ID_ATTRIBUTE);
}

const layer = (element: Element, depth: number): Layer => ({
  element,
  tagName: reportedTagName(element).toLowerCase(),
  depth,
});

/** Annotated descendants up to `levels` annotated levels deep (plain wrappers do not count), in document order. */
function annotatedDescendants(root: Element, levels: number, firstDepth: number): Layer[] {
  const found: Layer[] = [];
  const walk = (parent: Element, level: number) => {
    for (const child of Array.from(parent.children)) {
      if (!isAnnotated(child)) {
        walk(child, level);
        continue;
      }
      found.push(layer(child, firstDepth + level - 1));
      if (level < levels) walk(child, level + 1);
    }
  };
  walk(root, 1);
  return found;
}

/** The menu's entries for `selected`: ancestors, then siblings with the selection and its descendants. */
export function layerChain(selected: Element): Layer[] {
  const doc = selected.ownerDocument;
  const ancestors: Element[] = [];
  for (
    let node = selected.parentElement;
    node && node !== doc.body && node !== doc.documentElement;
    node = node.parentElement
  ) {
    if (ancestors.length === MAX_ANCESTORS) break;
    if (isAnnotated(node)) ancestors.unshift(node);
  }
  const chain = ancestors.map((element, depth) => layer(element, depth));
  const depth = ancestors.length;
  const withDescendants = () => [
    layer(selected, depth),
    ...annotatedDescendants(selected, MAX_DESCENDANT_LEVELS, depth + 1),
  ];
  const parent = ancestors.at(-1);
  if (!parent) return [...chain, ...withDescendants()];
  const siblings = annotatedDescendants(parent, 1, depth).map((entry) => entry.element);
  if (!siblings.includes(selected)) siblings.push(selected);
  // Elements rendered by the same JSX (one id) appear once.
  const seen = new Set<string>([selectorIdOf(selected) ?? '']);
  for (const sibling of siblings) {
    if (sibling === selected) {
      chain.push(...withDescendants());
      continue;
    }
    const id = selectorIdOf(sibling);
    if (id !== null && seen.has(id)) continue;
    if (id !== null) seen.add(id);
    chain.push(layer(sibling, depth));
  }
  return chain;
}
