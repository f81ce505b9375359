/**
 * Where a real pointer lands. A visitor's click goes to whatever is on top at the spot they aim at:
 * a loading screen laid over the page (the auth gate's spinner, components/shell/Gate.tsx), a dialog,
 * or nothing when the element is still moving. Playwright's own `click()` waits until the element is
 * the hit target and has stopped moving; the cross-engine drivers move the pointer through the
 * engines' protocols, which do not, so they wait here first, the same way in every engine.
 */

/** Waits until `probe` holds (the page's state changes after load: hydration, redirects, messages). */
export async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  let last: T = await probe();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe().catch(() => last);
  }
  return last;
}

/** A pointer aimed at the centre of an element, in its document's viewport. */
export interface Aim {
  x: number;
  y: number;
  /** What the engine hit-tests there: the element (or something inside it), or what covers it. */
  found: string;
  hits: boolean;
}

/**
 * In-page (its source runs in the page): scrolls the element into the middle of the viewport and
 * asks the engine what a pointer at its centre would hit.
 */
export function aimAt(selector: string): Aim {
  const element = document.querySelector(selector);
  if (!element) return { x: 0, y: 0, found: 'no element', hits: false };
  element.scrollIntoView({ block: 'center', inline: 'center' });
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  const describe = (node: Element | null) => {
    if (!node) return 'nothing (an inert document, or outside the viewport)';
    const role = node.getAttribute('role');
    return `${node.tagName.toLowerCase()}${role ? `[role="${role}"]` : ''}${node.id ? `#${node.id}` : ''}`;
  };
  return { x, y, found: describe(hit), hits: hit !== null && element.contains(hit) };
}

/**
 * In-page: where the document of the frame element `css` starts in this viewport (its box and
 * border), to add to an aim taken inside that frame.
 */
export function frameOffset(css: string): { x: number; y: number } {
  const frame = document.querySelector(css) as HTMLElement;
  const box = frame.getBoundingClientRect();
  return { x: box.left + frame.clientLeft, y: box.top + frame.clientTop };
}

/**
 * Waits until a pointer aimed at `selector` lands on it, at the same spot twice in a row (it has
 * stopped moving), and returns that spot. `aim` runs `aimAt` in the element's document.
 */
export async function steadyAim(aim: () => Promise<Aim>, selector: string): Promise<Aim> {
  let previous: Aim | undefined;
  const probe = async () => {
    const now = await aim();
    const steady = previous !== undefined && previous.x === now.x && previous.y === now.y;
    previous = now;
    return { ...now, steady };
  };
  return until(probe, (point) => point.hits && point.steady, `${selector} to take a pointer (uncovered, not moving)`);
}
