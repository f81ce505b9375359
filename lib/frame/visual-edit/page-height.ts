/**
 * The canvas sizing protocol: the editor sizes the frame to the page's content, which only works
 * if viewport-height units stop following the frame's height (`freeze-vh-units`), and asks for
 * the settled content height (`measure-page-height`, answered by `page-height-measured`).
 *
 * Freezing rewrites every `vh`/`dvh`/`svh`/`lvh` length in the page's style sheets (through the
 * CSSOM, allowed by a strict CSP) and inline styles into `calc(var(--base44-reference-vh-base) *
 * n)`, and lets inner vertical scrollers grow, so their content counts in the page's height.
 */
import { pageHeightMeasured, type OutgoingMessage } from '../messages';
import { OVERLAY_ATTRIBUTE } from './selection';

export const REFERENCE_VH_VARIABLE = '--base44-reference-vh-base';
const FALLBACK_VH_BASE = 900;
const MIN_VH_BASE = 400;
export const DEFAULT_SETTLE_MS = 2000;
/** The height is sent once this many samples, this far apart, agree (or after MAX_WAIT_MS). */
const STABLE_SAMPLES = 3;
const SAMPLE_INTERVAL_MS = 16;
const MAX_WAIT_MS = 1500;
const VIEWPORT_HEIGHT_LENGTH = /(\d+(?:\.\d+)?)[dsl]?vh\b/g;

/** `100dvh` -> `calc(var(--base44-reference-vh-base) * 1)`, for every viewport-height length. */
export function rewriteViewportHeights(value: string): string {
  return value.replace(VIEWPORT_HEIGHT_LENGTH, (_match, amount: string) => {
    const factor = String(Number((Number.parseFloat(amount) / 100).toFixed(6)));
    return `calc(var(${REFERENCE_VH_VARIABLE}) * ${factor})`;
  });
}

function rewriteDeclarations(style: CSSStyleDeclaration): void {
  // Indexing, not item(): jsdom's declarations have no item().
  const names = Array.from({ length: style.length }, (_unused, index) => style[index] ?? '');
  for (const name of names) {
    const value = style.getPropertyValue(name);
    if (!value.includes('vh')) continue;
    const next = rewriteViewportHeights(value);
    if (next !== value) style.setProperty(name, next, style.getPropertyPriority(name));
  }
}

function rewriteRules(rules: CSSRuleList): void {
  for (const rule of Array.from(rules)) {
    const nested = (rule as Partial<CSSGroupingRule>).cssRules;
    if (nested) rewriteRules(nested);
    const style = (rule as Partial<CSSStyleRule>).style;
    if (style) rewriteDeclarations(style);
  }
}

export interface PageHeightController {
  freeze(referenceVhBase: number | null): void;
  measure(settleMs: number | null): void;
  stop(): void;
}

export function createPageHeightController(
  win: Window,
  post: (message: OutgoingMessage) => void,
): PageHeightController {
  const doc = win.document;
  // A sheet is rewritten again only when its rule count changed (the Tailwind runtime adds rules).
  const seenRuleCounts = new WeakMap<CSSStyleSheet, number>();
  const grown = new WeakSet<Element>();
  let observer: MutationObserver | null = null;
  let settleTimer: ReturnType<typeof setTimeout> | null = null;
  let sampleTimer: ReturnType<typeof setTimeout> | null = null;

  const referenceBase = (): number => {
    const value = Number.parseFloat(doc.documentElement.style.getPropertyValue(REFERENCE_VH_VARIABLE));
    return Number.isFinite(value) ? value : 0;
  };

  /** Inner vertical scrollers (`auto`/`scroll`, not `hidden`/`clip`) grow so their content counts. */
  const growScroller = (element: Element) => {
    if (grown.has(element) || element.hasAttribute(OVERLAY_ATTRIBUTE)) return;
    const overflowY = win.getComputedStyle(element).overflowY;
    if (overflowY !== 'auto' && overflowY !== 'scroll') return;
    grown.add(element);
    (element as HTMLElement).style.setProperty('overflow-y', 'visible', 'important');
  };

  const rewriteInline = (element: Element) => {
    const style = (element as Partial<HTMLElement>).style;
    if (style && (element.getAttribute('style') ?? '').includes('vh')) rewriteDeclarations(style);
  };

  const neutraliseSheets = () => {
    for (const sheet of Array.from(doc.styleSheets)) {
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch {
        continue; // another origin's sheet: not readable, not ours to change
      }
      if (seenRuleCounts.get(sheet) === rules.length) continue;
      rewriteRules(rules);
      seenRuleCounts.set(sheet, rules.length);
    }
  };

  const neutralise = () => {
    neutraliseSheets();
    doc.querySelectorAll('[style*="vh"]').forEach(rewriteInline);
    if (doc.body) [doc.body, ...Array.from(doc.body.querySelectorAll('*'))].forEach(growScroller);
  };

  const watch = () => {
    observer = new (win as Window & typeof globalThis).MutationObserver((mutations) => {
      let sheetsChanged = false;
      for (const mutation of mutations) {
        if (mutation.type === 'attributes' && mutation.target.nodeType === 1) rewriteInline(mutation.target as Element);
        if (mutation.type === 'characterData' || mutation.type === 'childList') sheetsChanged = true;
        for (const node of Array.from(mutation.addedNodes)) {
          if (node.nodeType !== 1) continue;
          const element = node as Element;
          rewriteInline(element);
          element.querySelectorAll('[style*="vh"]').forEach(rewriteInline);
          growScroller(element);
          element.querySelectorAll('*').forEach(growScroller);
        }
      }
      if (sheetsChanged) neutraliseSheets();
    });
    observer.observe(doc.documentElement, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['style'],
    });
  };

  /** Bottom of the page's content, leaving out fixed layers, decorations and full-viewport shells. */
  const contentBottom = (viewportHeight: number): number => {
    if (!doc.body) return 0;
    const elements = [doc.body, ...Array.from(doc.body.querySelectorAll('*'))];
    const bottoms = new Map<Element, number>();
    const viewportBottom = win.scrollY + viewportHeight;
    // Children come after their parent in document order, so walking backwards sees them first.
    for (let index = elements.length - 1; index >= 0; index -= 1) {
      const element = elements[index] as Element;
      let childBottom = 0;
      for (const child of Array.from(element.children)) childBottom = Math.max(childBottom, bottoms.get(child) ?? 0);
      const style = win.getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      const decoration =
        style.position === 'fixed' || (style.position === 'absolute' && style.pointerEvents === 'none');
      const empty = rect.width === 0 && rect.height === 0;
      const margin = Number.parseFloat(style.marginBottom);
      const ownBottom = decoration || empty ? 0 : rect.bottom + win.scrollY + (Number.isFinite(margin) ? margin : 0);
      const ownHeight = decoration || empty ? 0 : rect.height;
      // A shell stretched over exactly the viewport says nothing about the content inside it.
      const stretched =
        childBottom > 0 &&
        Math.abs(ownBottom - viewportBottom) <= 1 &&
        Math.abs(ownHeight - viewportHeight) <= 1 &&
        ownBottom - childBottom > 8;
      bottoms.set(element, Math.max(childBottom, stretched ? 0 : ownBottom));
    }
    return bottoms.get(doc.body) ?? 0;
  };

  const measureNow = (): number => {
    const base = referenceBase();
    const viewportHeight = Math.max(win.innerHeight || 0, doc.documentElement.clientHeight, base);
    const bottom = contentBottom(viewportHeight);
    if (bottom > 0) return Math.ceil(Math.max(bottom, base));
    const scrollHeight = Math.max(doc.documentElement.scrollHeight, doc.body?.scrollHeight ?? 0);
    return Math.ceil(Math.max(scrollHeight, base));
  };

  const cancel = () => {
    if (settleTimer !== null) clearTimeout(settleTimer);
    if (sampleTimer !== null) clearTimeout(sampleTimer);
    settleTimer = null;
    sampleTimer = null;
  };

  return {
    freeze(referenceVhBase) {
      const detected = win.innerHeight || 0;
      const base = referenceVhBase ?? (detected >= MIN_VH_BASE ? detected : FALLBACK_VH_BASE);
      doc.documentElement.style.setProperty(REFERENCE_VH_VARIABLE, `${base}px`);
      neutralise();
      if (observer === null) watch();
    },
    measure(settleMs) {
      cancel();
      settleTimer = setTimeout(() => {
        settleTimer = null;
        if (observer !== null) neutralise();
        const deadline = Date.now() + MAX_WAIT_MS;
        let last = -1;
        let agreeing = 0;
        const sample = () => {
          sampleTimer = null;
          const height = measureNow();
          agreeing = height === last ? agreeing + 1 : 1;
          last = height;
          if (agreeing >= STABLE_SAMPLES || Date.now() >= deadline) post(pageHeightMeasured(height));
          else sampleTimer = setTimeout(sample, SAMPLE_INTERVAL_MS);
        };
        sample();
      }, settleMs ?? DEFAULT_SETTLE_MS);
    },
    stop() {
      cancel();
      observer?.disconnect();
      observer = null;
    },
  };
}
