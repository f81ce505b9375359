/**
 * The visual-edit agent: hover and selection outlines, click capture, element reports and the
 * editor's class and text changes (SPEC.md sections 4, 7 and 9).
 *
 * It only ever receives messages that the bridge has already checked (source, origin, shape), and
 * it only posts through the bridge, which knows the one origin it may post to.
 */
import {
  closeDropdowns,
  elementPositionUpdate,
  elementSelected,
  type IncomingMessage,
  type OutgoingMessage,
} from '../messages';
import { OverlayLayer } from './overlays';
import { isInViewport, positionOf } from './positions';
import {
  applyClasses,
  applyTextContent,
  describeElement,
  editableElementFrom,
  findElementsById,
  selectorIdOf,
} from './selection';
import { loadTailwindRuntime } from './tailwind-runtime';

/** SPEC.md section 9: overlays re-sync this long after a class or content change. */
export const RESYNC_DELAY_MS = 50;

/** Pointer events that would make the app act (follow a link, press a button, focus an input). */
const CAPTURED_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'dblclick', 'auxclick'] as const;

export interface VisualEditAgentOptions {
  win: Window;
  post: (message: OutgoingMessage) => void;
  /** Injected in tests; loads Tailwind's browser build by default. */
  loadTailwind?: (doc: Document) => Promise<void>;
  /** Injected in tests (jsdom cannot reload); `location.reload()` by default. */
  reload?: () => void;
  /** Reports a failure that is not the editor's business (e.g. the Tailwind runtime did not load). */
  onProblem?: (problem: string, cause?: unknown) => void;
}

export interface VisualEditAgent {
  handle(message: IncomingMessage): void;
  readonly enabled: boolean;
  readonly selectedId: string | null;
  stop(): void;
}

export function createVisualEditAgent(options: VisualEditAgentOptions): VisualEditAgent {
  const { win, post } = options;
  const doc = win.document;
  const loadTailwind = options.loadTailwind ?? ((target: Document) => loadTailwindRuntime(target));
  const onProblem = options.onProblem ?? (() => undefined);
  const reload = options.reload ?? (() => win.location.reload());
  const overlays = new OverlayLayer(doc);

  let enabled = false;
  let dragging = false;
  let dropdownOpen = false;
  let hoveredId: string | null = null;
  let selectedId: string | null = null;
  let selectedElement: Element | null = null;
  let resyncTimer: ReturnType<typeof setTimeout> | null = null;
  let frameRequest: number | null = null;
  let cursorSheet: CSSStyleSheet | null = null;
  let previousCursor = '';

  // ---- reports -------------------------------------------------------------------------------

  /** The selected element if still in the page, else the first element that now has its id. */
  const currentTarget = (id: string): Element | null => {
    if (id === selectedId && selectedElement?.isConnected) return selectedElement;
    return findElementsById(win, id)[0] ?? null;
  };

  const reportPosition = (id: string) => {
    const element = currentTarget(id);
    if (!element) return;
    const position = positionOf(element);
    post(elementPositionUpdate(id, position, isInViewport(position, win)));
  };

  // ---- overlays ------------------------------------------------------------------------------

  const showHover = (id: string | null) => {
    hoveredId = id;
    if (id === null || id === selectedId) overlays.hover.clear();
    else overlays.hover.show(findElementsById(win, id), null);
  };

  const showSelection = () => {
    if (selectedId === null) {
      overlays.selected.clear();
      return;
    }
    const targets = findElementsById(win, selectedId);
    if (selectedElement && !selectedElement.isConnected) selectedElement = targets[0] ?? null;
    overlays.selected.show(targets, selectedElement ? selectedElement.tagName.toLowerCase() : null);
  };

  /** After a change, elements may have moved or been re-rendered: look them up again. */
  const scheduleResync = () => {
    if (resyncTimer !== null) clearTimeout(resyncTimer);
    resyncTimer = setTimeout(() => {
      resyncTimer = null;
      if (!enabled) return;
      showSelection();
      showHover(hoveredId);
      if (selectedId !== null) reportPosition(selectedId);
    }, RESYNC_DELAY_MS);
  };

  const onScrollOrResize = () => {
    if (frameRequest !== null) return;
    frameRequest = win.requestAnimationFrame(() => {
      frameRequest = null;
      overlays.sync();
      if (enabled && selectedId !== null) reportPosition(selectedId);
    });
  };

  // ---- pointer handling ----------------------------------------------------------------------

  const block = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    event.stopImmediatePropagation();
  };

  const select = (element: Element) => {
    const id = selectorIdOf(element);
    if (id === null) return;
    selectedId = id;
    selectedElement = element;
    showSelection();
    showHover(null);
    const position = positionOf(element);
    post(elementSelected({ ...describeElement(element, id), position }));
  };

  /** Installed whenever the bridge runs: a click in the app closes the editor's open dropdowns. */
  const onClick = (event: MouseEvent) => {
    if (dropdownOpen) {
      dropdownOpen = false;
      post(closeDropdowns());
      if (enabled) block(event);
      return;
    }
    if (!enabled) return;
    block(event);
    if (dragging) return;
    const element = editableElementFrom(event.target);
    if (element) select(element);
  };

  const onPointerOver = (event: MouseEvent) => {
    if (dragging) return;
    const element = editableElementFrom(event.target);
    const id = element ? selectorIdOf(element) : null;
    if (id !== hoveredId) showHover(id);
  };

  const onPointerLeavePage = (event: MouseEvent) => {
    if (event.relatedTarget === null) showHover(null);
  };

  // ---- edit mode -----------------------------------------------------------------------------

  const setCrosshair = (on: boolean) => {
    // A constructed style sheet (CSSOM, allowed by a strict CSP) can override every element's own
    // cursor; engines without one get the cursor on the root element only.
    const StyleSheet = (win as Window & typeof globalThis).CSSStyleSheet;
    const canAdopt = typeof StyleSheet === 'function' && 'adoptedStyleSheets' in doc;
    if (on) {
      if (canAdopt) {
        try {
          const sheet = new StyleSheet();
          sheet.replaceSync('*, *::before, *::after { cursor: crosshair !important; }');
          doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
          cursorSheet = sheet;
          return;
        } catch {
          cursorSheet = null;
        }
      }
      previousCursor = doc.documentElement.style.cursor;
      doc.documentElement.style.cursor = 'crosshair';
      return;
    }
    if (cursorSheet) {
      const sheet = cursorSheet;
      doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((candidate) => candidate !== sheet);
      cursorSheet = null;
    } else {
      doc.documentElement.style.cursor = previousCursor;
    }
  };

  const enable = () => {
    if (enabled) return;
    enabled = true;
    setCrosshair(true);
    for (const type of CAPTURED_EVENTS) win.addEventListener(type, block, true);
    win.addEventListener('mouseover', onPointerOver, true);
    doc.addEventListener('mouseout', onPointerLeavePage, true);
    win.addEventListener('scroll', onScrollOrResize, { capture: true, passive: true });
    win.addEventListener('resize', onScrollOrResize, { passive: true });
    loadTailwind(doc).catch((cause: unknown) => onProblem('Tailwind browser runtime failed to load', cause));
  };

  const disable = () => {
    if (!enabled) return;
    enabled = false;
    setCrosshair(false);
    for (const type of CAPTURED_EVENTS) win.removeEventListener(type, block, true);
    win.removeEventListener('mouseover', onPointerOver, true);
    doc.removeEventListener('mouseout', onPointerLeavePage, true);
    win.removeEventListener('scroll', onScrollOrResize, true);
    win.removeEventListener('resize', onScrollOrResize);
    if (frameRequest !== null) win.cancelAnimationFrame(frameRequest);
    if (resyncTimer !== null) clearTimeout(resyncTimer);
    frameRequest = null;
    resyncTimer = null;
    hoveredId = null;
    selectedId = null;
    selectedElement = null;
    overlays.clear();
  };

  win.addEventListener('click', onClick, true);

  // ---- messages ------------------------------------------------------------------------------

  const handle = (message: IncomingMessage) => {
    switch (message.type) {
      case 'toggle-visual-edit-mode':
        if (message.data.enabled) enable();
        else disable();
        return;
      case 'update-classes': {
        // Edits apply only in edit mode: that is the only time the editor shows what it changes.
        if (!enabled) return;
        const { visualSelectorId, classes, replace } = message.data;
        for (const element of findElementsById(win, visualSelectorId)) applyClasses(element, classes, replace);
        scheduleResync();
        return;
      }
      case 'update-content': {
        if (!enabled) return;
        const { visualSelectorId, content } = message.data;
        for (const element of findElementsById(win, visualSelectorId)) {
          if (!applyTextContent(element, content)) onProblem(`update-content skipped ${element.tagName}: it has child elements`);
        }
        scheduleResync();
        return;
      }
      case 'unselect-element':
        selectedId = null;
        selectedElement = null;
        overlays.selected.clear();
        return;
      case 'refresh-page':
        reload();
        return;
      case 'request-element-position': {
        const id = message.data.visualSelectorId ?? selectedId;
        if (id !== null) reportPosition(id);
        return;
      }
      case 'popover-drag-state':
        dragging = message.data.isDragging;
        if (dragging) showHover(null);
        return;
      case 'dropdown-state':
        dropdownOpen = message.data.isOpen;
        return;
    }
  };

  return {
    handle,
    get enabled() {
      return enabled;
    },
    get selectedId() {
      return selectedId;
    },
    stop() {
      disable();
      win.removeEventListener('click', onClick, true);
    },
  };
}
