/**
 * The editor's changes to elements: classes, text and the one attribute it may set. Text always
 * goes in as text nodes (never as markup), and `src` only onto media elements with a URL that
 * cannot run code.
 */
import type { UpdateAttributeMessage, UpdateClassesMessage, UpdateContentMessage } from '../messages';
import { ALLOWED_ATTRIBUTES, IMAGE_COMPONENT_ATTRIBUTE } from './describe';
import { findElementsById } from './selection';

/** Sets the class attribute to exactly `classes`: the editor merges before it sends. */
export function applyClasses(element: Element, classes: string): void {
  // setAttribute, not className: SVG elements have no settable className string.
  element.setAttribute('class', classes);
}

/** Elements of `elements` at static-array index `arrIndex` (all of them when it is null). */
export function atArrayIndex(elements: Element[], arrIndex: string | null): Element[] {
  return arrIndex === null
    ? elements
    : elements.filter((element) => element.getAttribute('data-arr-index') === arrIndex);
}

/**
 * Puts plain text into an element, as the reference's `innerText = content` does (a line break
 * becomes a `<br>`). Only elements whose children are all text are changed: replacing child
 * elements that React rendered would leave React holding detached nodes and break its next
 * update. Returns whether the element was changed.
 */
export function applyTextContent(element: Element, content: string): boolean {
  const children = Array.from(element.childNodes);
  if (children.some((child) => child.nodeType !== 3 /* TEXT_NODE */ && child.nodeType !== 8 /* COMMENT */)) {
    return false;
  }
  const lines = content.split(/\r\n|\r|\n/);
  const textNodes = children.filter((child) => child.nodeType === 3);
  const [first] = textNodes;
  if (lines.length === 1 && first && textNodes.length === 1) {
    // Keep the node React knows about and change its data.
    first.nodeValue = content;
    return true;
  }
  const doc = element.ownerDocument;
  const nodes: Node[] = [];
  lines.forEach((line, index) => {
    if (index > 0) nodes.push(doc.createElement('br'));
    if (line !== '') nodes.push(doc.createTextNode(line));
  });
  element.replaceChildren(...nodes);
  return true;
}

/** Elements whose `src` loads media and nothing else (no frames, scripts or embeds). */
const MEDIA_TAGS = new Set(['IMG', 'SOURCE', 'VIDEO', 'AUDIO', 'TRACK']);
const MEDIA_SCHEMES = new Set(['http:', 'https:', 'blob:']);

/** http(s) and blob URLs (relative ones resolve to http(s)), and data: URLs of images only. */
export function isSafeMediaUrl(value: string, baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(value, baseUrl);
  } catch {
    return false;
  }
  if (url.protocol === 'data:') return /^data:image\/(png|jpeg|gif|webp|avif)[;,]/i.test(url.href);
  return MEDIA_SCHEMES.has(url.protocol);
}

/**
 * Sets an allowed attribute (only `src`). An image component gets a `base44:image-replace` event
 * instead, as the reference sends it, so the component can swap its own source. Returns whether
 * anything was applied.
 */
export function applyAttribute(element: Element, attribute: string, value: string, baseUrl: string): boolean {
  if (!(ALLOWED_ATTRIBUTES as readonly string[]).includes(attribute)) return false;
  if (!isSafeMediaUrl(value, baseUrl)) return false;
  if (element.hasAttribute(IMAGE_COMPONENT_ATTRIBUTE)) {
    const view = element.ownerDocument.defaultView;
    if (!view) return false;
    element.dispatchEvent(new view.CustomEvent('base44:image-replace', { detail: { src: value } }));
    return true;
  }
  if (!MEDIA_TAGS.has(element.tagName.toUpperCase())) return false;
  element.setAttribute(attribute, value);
  return true;
}

/**
 * Applies one of the editor's element changes to every element with its id. `selectedIndexOf`
 * gives the static-array index of the selected element when the id is the selection's (an
 * update-attribute without an index applies there only). Returns whether any element had the id.
 */
export function applyElementEdit(
  win: Window,
  message: UpdateClassesMessage | UpdateAttributeMessage | UpdateContentMessage,
  selectedIndexOf: (id: string) => string | null,
  onProblem: (problem: string) => void,
): boolean {
  const found = findElementsById(win, message.data.visualSelectorId);
  switch (message.type) {
    case 'update-classes':
      for (const element of found) applyClasses(element, message.data.classes);
      break;
    case 'update-attribute': {
      const { visualSelectorId, attribute, value, arrIndex } = message.data;
      const targets = atArrayIndex(found, arrIndex ?? selectedIndexOf(visualSelectorId));
      const refused = targets.filter((element) => !applyAttribute(element, attribute, value, win.location.href));
      if (refused.length > 0) onProblem(`update-attribute refused ${attribute} on ${refused.length} element(s)`);
      break;
    }
    case 'update-content':
      for (const element of atArrayIndex(found, message.data.arrIndex)) {
        if (!applyTextContent(element, message.data.content))
          onProblem(`update-content skipped ${element.tagName}: it has child elements`);
      }
      break;
  }
  return found.length > 0;
}
