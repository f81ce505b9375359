/**
 * The canvas sizing protocol: the editor sizes the frame to the page's content, which only works
 * if viewport-height units stop following the frame's height (`freeze-vh-units`, viewport-heights.ts),
 * and asks for the settled content height (`measure-page-height`, answered by `page-height-measured`).
 */
import { pageHeightMeasured, type OutgoingMessage } from '../messages';
import { createViewportHeightFreezer, referenceVhBase } from './viewport-heights';

export { REFERENCE_VH_VARIABLE, rewriteViewportHeights } from './viewport-heights';

export const DEFAULT_SETTLE_MS = 2000;
/** The height is sent once this many samples, this far apart, agree (or after MAX_WAIT_MS). */
const STABLE_SAMPLES = 3;
const SAMPLE_INTERVAL_MS = 16;
const MAX_WAIT_MS = 1500;

/** Bottom of the page's content, leaving out fixed layers, decorations and full-viewport shells. */
function contentBottom(win: Window, viewportHeight: number): number {
  const doc = win.document;
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
    const decoration = style.position === 'fixed' || (style.position === 'absolute' && style.pointerEvents === 'none');
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
}

/** The height of the page's content now, at least the frozen reference height. */
function measureNow(win: Window): number {
  const doc = win.document;
  const base = referenceVhBase(doc);
  const viewportHeight = Math.max(win.innerHeight || 0, doc.documentElement.clientHeight, base);
  const bottom = contentBottom(win, viewportHeight);
  if (bottom > 0) return Math.ceil(Math.max(bottom, base));
  const scrollHeight = Math.max(doc.documentElement.scrollHeight, doc.body?.scrollHeight ?? 0);
  return Math.ceil(Math.max(scrollHeight, base));
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
  const heights = createViewportHeightFreezer(win);
  let settleTimer: ReturnType<typeof setTimeout> | null = null;
  let sampleTimer: ReturnType<typeof setTimeout> | null = null;

  const cancel = () => {
    if (settleTimer !== null) clearTimeout(settleTimer);
    if (sampleTimer !== null) clearTimeout(sampleTimer);
    settleTimer = null;
    sampleTimer = null;
  };

  /** Samples the height until STABLE_SAMPLES agree (or MAX_WAIT_MS passed), then reports it. */
  const sampleUntilSettled = () => {
    const deadline = Date.now() + MAX_WAIT_MS;
    let last = -1;
    let agreeing = 0;
    const sample = () => {
      sampleTimer = null;
      const height = measureNow(win);
      agreeing = height === last ? agreeing + 1 : 1;
      last = height;
      if (agreeing >= STABLE_SAMPLES || Date.now() >= deadline) post(pageHeightMeasured(height));
      else sampleTimer = setTimeout(sample, SAMPLE_INTERVAL_MS);
    };
    sample();
  };

  return {
    freeze: (base) => heights.freeze(base),
    measure(settleMs) {
      cancel();
      settleTimer = setTimeout(() => {
        settleTimer = null;
        if (heights.frozen) heights.refresh();
        sampleUntilSettled();
      }, settleMs ?? DEFAULT_SETTLE_MS);
    },
    stop() {
      cancel();
      heights.stop();
    },
  };
}
