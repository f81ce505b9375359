/**
 * Finding editable elements and describing them to the editor.
 *
 * An element is editable when the build annotated it with `data-source-location` (see
 * build-steps/source-annotations) or the author gave it a `data-visual-selector-id`. Every element that
 * shares an id (one JSX element rendered in a loop) is edited and outlined together.
 */

export const SOURCE_LOCATION_ATTRIBUTE = 'data-source-location';
export const SELECTOR_ID_ATTRIBUTE = 'data-visual-selector-id';
export const DYNAMIC_CONTENT_ATTRIBUTE = 'data-dynamic-content';
/** Marks our own overlay nodes, which are never editable themselves. */
export const OVERLAY_ATTRIBUTE = 'data-visual-edit-overlay';

const EDITABLE_SELECTOR = `[${SOURCE_LOCATION_ATTRIBUTE}], [${SELECTOR_ID_ATTRIBUTE}]`;

/**
 * CSS.escape as specified in CSSOM (serialize an identifier), for engines without it (jsdom).
 * Browsers use their own; this exists so an id can never break out of the selector it is put in.
 */
export function cssEscape(value: string): string {
  let result = '';
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    const char = value.charAt(index);
    if (code === 0) {
      result += '\uFFFD';
    } else if (
      (code >= 0x1 && code <= 0x1f) ||
      code === 0x7f ||
      (index === 0 && code >= 0x30 && code <= 0x39) ||
      (index === 1 && code >= 0x30 && code <= 0x39 && value.charCodeAt(0) === 0x2d)
    ) {
      result += `\\${code.toString(16)} `;
    } else if (index === 0 && value.length === 1 && code === 0x2d) {
      result += `\\${char}`;
    } else if (code >= 0x80 || code === 0x2d || code === 0x5f || /[0-9A-Za-z]/.test(char)) {
      result += char;
    } else {
      result += `\\${char}`;
    }
  }
  return result;
}

function escapeFor(win: Window, value: string): string {
  const native = (win as Window & { CSS?: { escape?: (text: string) => string } }).CSS?.escape;
  return typeof native === 'function' ? native(value) : cssEscape(value);
}

/** The attribute selector for one id; the id is escaped, so any string is safe to pass. */
export function selectorForId(win: Window, id: string): string {
  const escaped = escapeFor(win, id);
  return `[${SOURCE_LOCATION_ATTRIBUTE}="${escaped}"], [${SELECTOR_ID_ATTRIBUTE}="${escaped}"]`;
}

/** Every element carrying `id`, in document order (empty when none). */
export function findElementsById(win: Window, id: string): Element[] {
  try {
    return Array.from(win.document.querySelectorAll(selectorForId(win, id)));
  } catch {
    // Escaping makes an invalid selector impossible; this only guards against a broken engine.
    return [];
  }
}

/** The id an editable element is known by. */
export function selectorIdOf(element: Element): string | null {
  return element.getAttribute(SOURCE_LOCATION_ATTRIBUTE) ?? element.getAttribute(SELECTOR_ID_ATTRIBUTE);
}

/** The nearest editable element at or above an event target, ignoring our overlays. */
export function editableElementFrom(target: EventTarget | null): Element | null {
  // Duck-typed instead of `instanceof Element`: the target may come from another realm (tests, frames).
  const node = target as { closest?: unknown } | null;
  if (!node || typeof node.closest !== 'function') return null;
  const element = target as Element;
  if (element.closest(`[${OVERLAY_ATTRIBUTE}]`)) return null;
  return element.closest(EDITABLE_SELECTOR);
}
