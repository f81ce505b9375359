/** Element boxes in viewport pixels, as the editor positions its popovers by them. */
import type { ElementPosition } from '../messages';

/** A finite number, so a broken layout engine can never put NaN or Infinity on the wire. */
function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

export function positionOf(element: Element): ElementPosition {
  const rect = element.getBoundingClientRect();
  const top = finite(rect.top);
  const left = finite(rect.left);
  const width = finite(rect.width);
  const height = finite(rect.height);
  return {
    top,
    left,
    right: left + width,
    bottom: top + height,
    width,
    height,
    centerX: left + width / 2,
    centerY: top + height / 2,
  };
}

/** True when any part of the box is inside the viewport. */
export function isInViewport(position: ElementPosition, win: Window): boolean {
  const viewportWidth = win.innerWidth || win.document.documentElement.clientWidth;
  const viewportHeight = win.innerHeight || win.document.documentElement.clientHeight;
  return position.bottom > 0 && position.right > 0 && position.top < viewportHeight && position.left < viewportWidth;
}
