/**
 * The layer menu: the label of the selection outline opens a list of the selected element's layers
 * (layer-chain.ts), so the user can select an element that is hard to click, as the reference
 * agent's layer dropdown does. Opening it tells the editor the selection is gone
 * (`unselect-element`); choosing a layer (click, or arrows and Enter) selects it; Escape or the
 * label again brings the previous selection back.
 *
 * Everything here is our own overlay markup, built with DOM calls, textContent and CSSOM styles
 * only (the chevron too: an SVG made element by element, never parsed from a string).
 */
import { layerChain, type Layer } from './layer-chain';

/** Marks the clickable label and the menu; the agent leaves clicks on them to this module. */
export const LAYER_ATTRIBUTE = 'data-visual-edit-layer';
const INDENT_PX = 10;
const SVG_NS = 'http://www.w3.org/2000/svg';
/** The chevron's path, pointing down while the menu is closed and up while it is open (the reference's icons). */
const CHEVRON_PATHS = { closed: 'M6 9l6 6 6-6', open: 'M18 15l-6-6-6 6' } as const;

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

/** The label's chevron: an SVG icon, so the label's text stays the tag name alone. */
function createChevron(doc: Document): { element: Element; show(state: keyof typeof CHEVRON_PATHS): void } {
  const svg = doc.createElementNS(SVG_NS, 'svg');
  const path = doc.createElementNS(SVG_NS, 'path');
  const attributes = (element: Element, values: Record<string, string>) => {
    for (const [name, value] of Object.entries(values)) element.setAttribute(name, value);
  };
  attributes(svg, { width: '12', height: '12', viewBox: '0 0 24 24', 'aria-hidden': 'true' });
  attributes(path, { stroke: 'currentColor', 'stroke-width': '2', fill: 'none', d: CHEVRON_PATHS.closed });
  svg.append(path);
  (svg as SVGElement).style.setProperty('vertical-align', 'middle');
  (svg as SVGElement).style.setProperty('margin-left', '4px');
  return { element: svg, show: (state) => path.setAttribute('d', CHEVRON_PATHS[state]) };
}

/** The menu's markup: one entry per layer, the selection marked, styled like the editor's. */
function buildMenu(
  doc: Document,
  label: HTMLElement,
  entries: Layer[],
  selected: Element,
  on: { hover(index: number): void; leave(): void; choose(element: Element): void },
): HTMLElement {
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
  entries.forEach((entry, index) => {
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
    item.addEventListener('mouseenter', () => on.hover(index));
    item.addEventListener('mouseleave', () => on.leave());
    item.addEventListener('click', (event) => {
      event.preventDefault();
      event.stopPropagation();
      on.choose(entry.element);
    });
    list.append(item);
  });
  return list;
}

/** Makes the selection label a button with a chevron; returns the chevron. */
function prepareLabel(doc: Document, label: HTMLElement): ReturnType<typeof createChevron> {
  const chevron = createChevron(doc);
  label.append(chevron.element);
  label.setAttribute(LAYER_ATTRIBUTE, 'label');
  Object.assign(label.style, {
    display: 'inline-flex',
    alignItems: 'center',
    whiteSpace: 'nowrap',
    pointerEvents: 'auto',
    cursor: 'pointer',
    userSelect: 'none',
  });
  return chevron;
}

/** Whether `target` is a layer label or menu (or inside one). */
function isLayerTarget(target: EventTarget | null): boolean {
  const node = target as { closest?: unknown } | null;
  return (
    node !== null &&
    typeof node === 'object' &&
    typeof node.closest === 'function' &&
    (target as Element).closest(`[${LAYER_ATTRIBUTE}]`) !== null
  );
}

/** Shades the entry at `index` as focused (the selection's own entry keeps its colours). */
function paintHighlight(menu: HTMLElement, index: number): void {
  Array.from(menu.children as HTMLCollectionOf<HTMLElement>).forEach((entry, position) => {
    if (entry.getAttribute('aria-current') !== 'true')
      entry.style.background = position === index ? '#f1f5f9' : 'transparent';
  });
}

type KeyAction = { kind: 'focus'; index: number } | { kind: 'choose'; element: Element } | { kind: 'dismiss' };

/** What a key does in the open menu: arrows move the focus round, Enter chooses, Escape dismisses. */
function keyAction(key: string, focused: number, layers: Layer[]): KeyAction | null {
  const count = layers.length;
  if (key === 'ArrowDown' || key === 'ArrowUp')
    return { kind: 'focus', index: (focused + (key === 'ArrowDown' ? 1 : count - 1)) % count };
  const current = layers[focused];
  if (key === 'Enter' && current) return { kind: 'choose', element: current.element };
  return key === 'Escape' ? { kind: 'dismiss' } : null;
}

export function createLayerMenu(host: LayerMenuHost): LayerMenu {
  const doc = host.win.document;
  let menu: HTMLElement | null = null;
  let source: Element | null = null;
  let focused = -1;
  let layers: Layer[] = [];
  /** The chevron of the label the open menu came from. */
  let chevron: ReturnType<typeof createChevron> | null = null;

  const highlight = (index: number) => {
    focused = index;
    if (menu) paintHighlight(menu, index);
    host.preview(layers[index]?.element ?? null);
  };

  const close = () => {
    if (!menu) return;
    menu.remove();
    menu = null;
    chevron?.show('closed');
    chevron = null;
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
    const action = keyAction(event.key, focused, layers);
    if (action === null) return;
    if (action.kind === 'focus') highlight(action.index);
    else if (action.kind === 'choose') choose(action.element);
    else {
      close();
      restore();
    }
    event.preventDefault();
    event.stopPropagation();
  }

  const open = (label: HTMLElement, selected: Element, icon: ReturnType<typeof createChevron>) => {
    layers = layerChain(selected);
    menu = buildMenu(doc, label, layers, selected, {
      hover: highlight,
      leave: () => host.preview(null),
      choose,
    });
    label.parentElement?.append(menu);
    chevron = icon;
    icon.show('open');
    focused = layers.findIndex((entry) => entry.element === selected);
    doc.addEventListener('keydown', onKey, true);
  };

  return {
    attach(label, selected) {
      if (layerChain(selected).length <= 1) return;
      const icon = prepareLabel(doc, label);
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
        open(label, selected, icon);
      });
    },
    isOpen: () => menu !== null,
    owns: isLayerTarget,
    close,
  };
}
