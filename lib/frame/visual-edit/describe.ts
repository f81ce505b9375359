/**
 * What the editor is told about an element: the fields of element-selected and of inline-edit's
 * `elementInfo`, read exactly as the reference agent reads them (tag name as the element reports
 * it, innerText only for text elements, the build's annotations, static-array and collection
 * markers), and never anything but what the page already shows.
 */
import type { ElementInfo, ElementSelectedMessage } from '../messages';
import { positionOf } from './positions';
import { DYNAMIC_CONTENT_ATTRIBUTE, SOURCE_LOCATION_ATTRIBUTE } from './selection';

/** Elements the editor treats as text: their text is reported and can be edited as such. */
const TEXT_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'span', 'a', 'label']);
/** Attributes reported in element-selected (and the only one update-attribute may change). */
export const ALLOWED_ATTRIBUTES = ['src'] as const;
/** Marks an image component, whose real `src` lives in `data-base44-image-src`. */
export const IMAGE_COMPONENT_ATTRIBUTE = 'data-base44-image';

function attribute(element: Element, name: string): string | undefined {
  return element.getAttribute(name) ?? undefined;
}

/** A non-empty attribute of the nearest element (self included) that has it, else null. */
function closestValue(element: Element, name: string): string | null {
  return element.closest(`[${name}]`)?.getAttribute(name) || null;
}

export function isImageComponent(element: Element): boolean {
  return element.hasAttribute(IMAGE_COMPONENT_ATTRIBUTE);
}

/** The tag the editor shows: as the element reports it (`H1`), `IMG` for an image component. */
export function reportedTagName(element: Element): string {
  return isImageComponent(element) ? 'IMG' : element.tagName;
}

export function isTextElement(element: Element): boolean {
  return TEXT_TAGS.has(reportedTagName(element).toLowerCase());
}

/** innerText where the element has one (HTML elements), as the editor shows rendered text. */
function innerTextOf(element: Element): string | undefined {
  const text = (element as Partial<HTMLElement>).innerText;
  return typeof text === 'string' ? text : undefined;
}

export function elementInfo(
  element: Element,
  visualSelectorId: string | null,
  content: string | undefined,
): ElementInfo {
  return {
    tagName: element.tagName,
    // getAttribute, not className: on SVG elements className is an object, not a string.
    classes: element.getAttribute('class') ?? '',
    visualSelectorId,
    content,
    dataSourceLocation: attribute(element, SOURCE_LOCATION_ATTRIBUTE),
    isDynamicContent: element.getAttribute(DYNAMIC_CONTENT_ATTRIBUTE) === 'true',
    linenumber: attribute(element, 'data-linenumber'),
    filename: attribute(element, 'data-filename'),
    position: positionOf(element),
  };
}

function allowedAttributes(element: Element): Record<string, string> {
  // Keys come from our own constant list, never from the editor.
  const found: Record<string, string> = {};
  for (const name of ALLOWED_ATTRIBUTES) {
    const value =
      name === 'src' && isImageComponent(element)
        ? element.getAttribute('data-base44-image-src')
        : element.getAttribute(name);
    if (value !== null) found[name] = value;
  }
  return found;
}

export function describeSelection(element: Element, visualSelectorId: string): Omit<ElementSelectedMessage, 'type'> {
  const text = isTextElement(element);
  const arrayIndex = element.closest('[data-arr-variable-name]')?.getAttribute('data-arr-index');
  const parsedIndex = arrayIndex == null ? null : Number.parseInt(arrayIndex, 10);
  return {
    ...elementInfo(element, visualSelectorId, text ? innerTextOf(element) : undefined),
    tagName: reportedTagName(element),
    attributes: allowedAttributes(element),
    isTextElement: text,
    staticArrayName: closestValue(element, 'data-arr-variable-name'),
    staticArrayIndex: parsedIndex === null || Number.isNaN(parsedIndex) ? null : parsedIndex,
    staticArrayField: element.getAttribute('data-arr-field') || null,
    collectionId: closestValue(element, 'data-collection-id'),
    collectionItemField: closestValue(element, 'data-collection-item-field'),
    collectionItemId: closestValue(element, 'data-collection-item-id'),
  };
}
