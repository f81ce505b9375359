/**
 * Viewport-height units frozen for the editor's canvas (`freeze-vh-units`): every `vh`/`dvh`/`svh`/
 * `lvh` length in the page's style sheets (through the CSSOM, allowed by a strict CSP) and inline
 * styles becomes `calc(var(--base44-reference-vh-base) * n)`, and inner vertical scrollers grow, so
 * their content counts in the page's height. Styles the page adds later are rewritten as they come.
 */
import { OVERLAY_ATTRIBUTE } from './selection';

export const REFERENCE_VH_VARIABLE = '--base44-reference-vh-base';
const FALLBACK_VH_BASE = 900;
const MIN_VH_BASE = 400;
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

/** The reference height frozen units stand for, in px (0 before any freeze). */
export function referenceVhBase(doc: Document): number {
  const value = Number.parseFloat(doc.documentElement.style.getPropertyValue(REFERENCE_VH_VARIABLE));
  return Number.isFinite(value) ? value : 0;
}

export interface ViewportHeightFreezer {
  readonly frozen: boolean;
  /** Freezes at `base` px per 100vh (the frame's height, or a fallback, when null). */
  freeze(base: number | null): void;
  /** Rewrites what the page added since (before a measurement). */
  refresh(): void;
  stop(): void;
}

export function createViewportHeightFreezer(win: Window): ViewportHeightFreezer {
  const doc = win.document;
  // A sheet is rewritten again only when its rule count changed (the Tailwind runtime adds rules).
  const seenRuleCounts = new WeakMap<CSSStyleSheet, number>();
  const grown = new WeakSet<Element>();
  let observer: MutationObserver | null = null;

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

  return {
    get frozen() {
      return observer !== null;
    },
    freeze(referenceBase) {
      const detected = win.innerHeight || 0;
      const base = referenceBase ?? (detected >= MIN_VH_BASE ? detected : FALLBACK_VH_BASE);
      doc.documentElement.style.setProperty(REFERENCE_VH_VARIABLE, `${base}px`);
      neutralise();
      if (observer === null) watch();
    },
    refresh: () => neutralise(),
    stop() {
      observer?.disconnect();
      observer = null;
    },
  };
}
