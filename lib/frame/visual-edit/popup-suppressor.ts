/**
 * `suppress-auto-popups`: hides modal pop-ups that open by themselves (cookie walls, newsletter
 * dialogs), so the editor's snapshot of the page shows the page. Same rule as the reference: a
 * fixed, high z-index layer covering the viewport with a see-through or blurred look is a
 * backdrop; once one was seen, fixed high layers shaped like a dialog are its panels. Hidden
 * elements are marked, so nothing is hidden twice; our own overlays are never touched.
 */
import { OVERLAY_ATTRIBUTE } from './selection';
import { referenceVhBase } from './viewport-heights';

export const SUPPRESSED_ATTRIBUTE = 'data-base44-suppressed-popup';
const FULL_VIEWPORT = 0.9;
const PANEL_MIN = 0.15;
const PANEL_MAX = 0.95;
const POPUP_Z_INDEX = 40;

interface Viewport {
  width: number;
  height: number;
}

/** The alpha of a computed colour (legacy `rgba(...)` or modern `... / a`), or null if unknown. */
export function alphaOf(color: string): number | null {
  const legacy = /^rgba?\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*(?:,\s*([0-9.]+)\s*)?\)$/.exec(color);
  if (legacy) return legacy[1] === undefined ? 1 : Number.parseFloat(legacy[1]);
  const modern = /\/\s*([0-9.]+)(%?)\s*\)$/.exec(color);
  if (modern) return Number.parseFloat(modern[1] ?? '') / (modern[2] === '%' ? 100 : 1);
  return /^[a-z]+\s*\(/.test(color) ? 1 : null;
}

function isSeeThrough(style: CSSStyleDeclaration): boolean {
  const alpha = alphaOf(style.backgroundColor);
  if (alpha !== null && alpha > 0 && alpha < 1) return true;
  return Boolean(style.backdropFilter) && style.backdropFilter !== 'none';
}

function hasPopupZIndex(style: CSSStyleDeclaration): boolean {
  const z = Number.parseInt(style.zIndex, 10);
  return Number.isFinite(z) && z >= POPUP_Z_INDEX;
}

/** The editor's visible viewport: the frozen reference height when set (the frame is content-sized). */
function viewportOf(win: Window): Viewport {
  const doc = win.document;
  const reference = referenceVhBase(doc);
  const width = win.innerWidth || doc.documentElement.clientWidth || 0;
  const height = reference > 0 ? reference : win.innerHeight || doc.documentElement.clientHeight || 0;
  return { width, height };
}

function isPopupLayer(element: Element, style: CSSStyleDeclaration): boolean {
  return style.position === 'fixed' && hasPopupZIndex(style) && !element.closest(`[${OVERLAY_ATTRIBUTE}]`);
}

function coversViewport(element: Element, view: Viewport): boolean {
  const box = element.getBoundingClientRect();
  return (
    view.width > 0 &&
    view.height > 0 &&
    box.width >= view.width * FULL_VIEWPORT &&
    box.height >= view.height * FULL_VIEWPORT
  );
}

function isDialogShaped(element: Element, view: Viewport): boolean {
  const box = element.getBoundingClientRect();
  const within = (size: number, of: number) => size >= of * PANEL_MIN && size <= of * PANEL_MAX;
  return within(box.width, view.width) && within(box.height, view.height);
}

/** A backdrop paints its veil itself or through a positioned, high child. */
function looksLikeBackdrop(win: Window, element: Element, style: CSSStyleDeclaration): boolean {
  if (isSeeThrough(style)) return true;
  return Array.from(element.querySelectorAll('*')).some((child) => {
    const childStyle = win.getComputedStyle(child);
    return (
      (childStyle.position === 'fixed' || childStyle.position === 'absolute') &&
      hasPopupZIndex(childStyle) &&
      isSeeThrough(childStyle)
    );
  });
}

function hide(element: Element): void {
  if (element.hasAttribute(SUPPRESSED_ATTRIBUTE)) return;
  element.setAttribute(SUPPRESSED_ATTRIBUTE, '1');
  (element as HTMLElement).style.setProperty('display', 'none', 'important');
}

/** `root` and the elements under it that are not hidden yet. */
function candidates(root: Element): Element[] {
  return [root, ...Array.from(root.querySelectorAll(`*:not([${SUPPRESSED_ATTRIBUTE}])`))];
}

export function createPopupSuppressor(win: Window): { suppress(): void; stop(): void } {
  const doc = win.document;
  let observer: MutationObserver | null = null;
  let backdropSeen = false;

  const sweepPanels = (view: Viewport) => {
    if (!doc.body) return;
    for (const element of candidates(doc.body)) {
      if (element.hasAttribute(SUPPRESSED_ATTRIBUTE)) continue;
      if (isPopupLayer(element, win.getComputedStyle(element)) && isDialogShaped(element, view)) hide(element);
    }
  };

  const classify = (element: Element, view: Viewport) => {
    if (element.hasAttribute(SUPPRESSED_ATTRIBUTE) || !('style' in element)) return;
    const style = win.getComputedStyle(element);
    if (!isPopupLayer(element, style)) return;
    if (coversViewport(element, view) && looksLikeBackdrop(win, element, style)) {
      hide(element);
      backdropSeen = true;
      sweepPanels(viewportOf(win));
    } else if (backdropSeen && isDialogShaped(element, view)) {
      hide(element);
    }
  };

  const scan = (root: Element) => {
    const view = viewportOf(win);
    for (const element of candidates(root)) classify(element, view);
  };

  const start = () => {
    if (!doc.body || observer !== null) return;
    scan(doc.body);
    observer = new (win as Window & typeof globalThis).MutationObserver((mutations) => {
      for (const mutation of mutations) {
        for (const node of Array.from(mutation.addedNodes)) if (node.nodeType === 1) scan(node as Element);
      }
    });
    observer.observe(doc.documentElement, { childList: true, subtree: true });
  };

  return {
    suppress() {
      if (doc.body) start();
      else doc.addEventListener('DOMContentLoaded', start, { once: true });
    },
    stop() {
      observer?.disconnect();
      observer = null;
      backdropSeen = false;
    },
  };
}
