/**
 * The layer menu: the label of the selection outline opens a list of the selected element's
 * annotated ancestors (two levels), siblings and descendants (two levels), so the user can select
 * an element that is hard to click, as the reference agent's layer dropdown does. Opening it tells
 * the editor the selection is gone (`unselect-element`); choosing a layer (click, or arrows and
 * Enter) selects it; Escape or the label again brings the previous selection back.
 *
 * Everything here is our own overlay markup, built with textContent and CSSOM styles only.
 */
import { reportedTagName } from './describe';
import { SELECTOR_ID_ATTRIBUTE, selectorIdOf, SOURCE_LOCATION_ATTRIBUTE } from './selection';

/** Marks the clickable label and the menu; the agent leaves clicks on them to this module. */
export const LAYER_ATTRIBUTE = 'data-visual-edit-layer';
const MAX_ANCESTORS = 2;
const MAX_DESCENDANT_LEVELS = 2;
const INDENT_PX = 10;

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

export interface LayerMenuHost {
  win: Window;
  /** Selects `element` and tells the editor (element-selected). */
  select(element: Element): void;
  /** Tells the editor nothing is selected while the menu is open; the outline stays. */
  deselect(): void;
  /** Outlines the entry under the pointer or keyboard focus (null: none). */
  preview(element: Element | null): void;
}

export interface LayerMenu {
  /** Makes the selection label open the menu, when there is more than one layer to offer. */
  attach(label: HTMLElement, selected: Element): void;
  isOpen(): boolean;
  /** Whether `target` is the label or the menu. */
  owns(target: EventTarget | null): boolean;
  close(): void;
}

export function createLayerMenu(host: LayerMenuHost): LayerMenu {
  const doc = host.win.document;
  let menu: HTMLElement | null = null;
  let source: Element | null = null;
  let focused = -1;
  let layers: Layer[] = [];

  const entries = () => (menu ? (Array.from(menu.children) as HTMLElement[]) : []);

  const highlight = (index: number) => {
    focused = index;
    entries().forEach((entry, position) => {
      if (entry.getAttribute('aria-current') !== 'true')
        entry.style.background = position === index ? '#f1f5f9' : 'transparent';
    });
    host.preview(layers[index]?.element ?? null);
  };

  const close = () => {
    if (!menu) return;
    menu.remove();
    menu = null;
    doc.removeEventListener('keydown', onKey, true);
    host.preview(null);
  };

  const choose = (element: Element) => {
    close();
    source = null;
    host.select(element);
  };

  const restore = () => {
    const previous = source;
    source = null;
    if (previous) host.select(previous);
  };

  function onKey(event: KeyboardEvent) {
    const count = layers.length;
    const current = layers[focused];
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp')
      highlight((focused + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
    else if (event.key === 'Enter' && current) choose(current.element);
    else if (event.key === 'Escape') {
      close();
      restore();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  }

  const open = (label: HTMLElement, selected: Element) => {
    layers = layerChain(selected);
    const list = doc.createElement('div');
    list.setAttribute(LAYER_ATTRIBUTE, 'menu');
    list.setAttribute('role', 'menu');
    Object.assign(list.style, {
      position: 'absolute',
      top: `${label.offsetTop + label.offsetHeight + 2}px`,
      left: `${label.offsetLeft}px`,
      background: '#ffffff',
      border: '1px solid #e2e8f0',
      borderRadius: '6px',
      boxShadow: '0 4px 12px rgba(0, 0, 0, 0.15)',
      font: '400 12px/1.5 ui-sans-serif, system-ui, sans-serif',
      minWidth: '120px',
      maxHeight: '200px',
      overflowY: 'auto',
      padding: '4px 0',
      pointerEvents: 'auto',
      zIndex: '10001',
    });
    layers.forEach((entry, index) => {
      const item = doc.createElement('div');
      item.setAttribute('role', 'menuitem');
      item.textContent = entry.tagName;
      Object.assign(item.style, {
        padding: `4px 12px 4px ${12 + entry.depth * INDENT_PX}px`,
        cursor: 'pointer',
        color: '#334155',
        whiteSpace: 'nowrap',
      });
      if (entry.element === selected) {
        item.setAttribute('aria-current', 'true');
        Object.assign(item.style, { color: '#526cff', background: '#DBEAFE', fontWeight: '600' });
      }
      item.addEventListener('mouseenter', () => highlight(index));
      item.addEventListener('mouseleave', () => host.preview(null));
      item.addEventListener('click', (event) => {
        event.preventDefault();
        event.stopPropagation();
        choose(entry.element);
      });
      list.append(item);
    });
    label.parentElement?.append(list);
    menu = list;
    focused = layers.findIndex((entry) => entry.element === selected);
    doc.addEventListener('keydown', onKey, true);
  };

  return {
    attach(label, selected) {
      if (layerChain(selected).length <= 1) return;
      const chevron = doc.createElement('span');
      chevron.textContent = ' ▾';
      chevron.setAttribute('aria-hidden', 'true');
      label.append(chevron);
      label.setAttribute(LAYER_ATTRIBUTE, 'label');
      Object.assign(label.style, { pointerEvents: 'auto', cursor: 'pointer', userSelect: 'none' });
      label.addEventListener('click', (event) => {
        event.preventDefault();
        event.stopPropagation();
        if (menu) {
          close();
          restore();
          return;
        }
        source = selected;
        host.deselect();
        open(label, selected);
      });
    },
    isOpen: () => menu !== null,
    owns(target) {
      const node = target as { closest?: unknown } | null;
      return (
        node !== null &&
        typeof node === 'object' &&
        typeof node.closest === 'function' &&
        (target as Element).closest(`[${LAYER_ATTRIBUTE}]`) !== null
      );
    },
    close,
  };
}
