/**
 * Messages the editor sends us (editor -> site), as the reference agent in `@base44/vite-plugin`
 * 1.0.42 understands them, and one parser per type.
 *
 * Each parser checks the exact shape, caps every string and copies only the known fields into a
 * fresh object, so later code never touches anything else the sender attached. A message that
 * fails its parser is dropped whole: bad input changes nothing.
 */
import {
  dataOf,
  hasNoPayloadOrEmpty,
  isBoundedString,
  isNumberIn,
  isPlainObject,
  isSelectorId,
  MAX_CLASSES_LENGTH,
  MAX_CONTENT_LENGTH,
  ownField,
  type PlainObject,
} from './shape';

/** Longest attribute value (an image URL, possibly a data: URL) the editor may set. */
export const MAX_ATTRIBUTE_VALUE_LENGTH = 65_536;
/** Most theme variables one message may set, and the longest value of one. */
export const MAX_THEME_VARIABLES = 500;
export const MAX_THEME_VALUE_LENGTH = 2_000;
/** Longest font URL and @font-face rule accepted. */
export const MAX_FONT_URL_LENGTH = 2_048;
export const MAX_FONT_FACE_LENGTH = 20_000;
/** Longest settle time of measure-page-height (ms) and the largest reference viewport height (px). */
export const MAX_SETTLE_MS = 60_000;
export const MAX_REFERENCE_VH_BASE = 100_000;

/** A CSS custom property name: the only kind of property update-theme-variables may set. */
const CUSTOM_PROPERTY_NAME = /^--[A-Za-z0-9_-]{1,200}$/;

export interface ToggleVisualEditModeMessage {
  type: 'toggle-visual-edit-mode';
  /** `inlineEditEnabled` is the editor's `specs.newInlineEditEnabled`; null = leave as it is. */
  data: { enabled: boolean; inlineEditEnabled: boolean | null };
}
export interface UpdateClassesMessage {
  type: 'update-classes';
  /** `classes` becomes the element's whole class attribute (the editor merges before sending). */
  data: { visualSelectorId: string; classes: string };
}
export interface UpdateAttributeMessage {
  type: 'update-attribute';
  data: { visualSelectorId: string; attribute: string; value: string; arrIndex: string | null };
}
export interface UpdateContentMessage {
  type: 'update-content';
  data: { visualSelectorId: string; content: string; arrIndex: string | null };
}
export interface UnselectElementMessage {
  type: 'unselect-element';
}
export interface RefreshPageMessage {
  type: 'refresh-page';
}
/** Asks for the selected element's position (the reference ignores any id it carries). */
export interface RequestElementPositionMessage {
  type: 'request-element-position';
}
export interface PopoverDragStateMessage {
  type: 'popover-drag-state';
  data: { isDragging: boolean };
}
export interface DropdownStateMessage {
  type: 'dropdown-state';
  data: { isOpen: boolean };
}
export interface UpdateThemeVariablesMessage {
  type: 'update-theme-variables';
  /** Custom property name/value pairs, in the order sent; `dark` targets the `.dark` element. */
  data: { variables: readonly (readonly [string, string])[]; mode: 'light' | 'dark' };
}
export interface InjectFontImportMessage {
  type: 'inject-font-import';
  data: { fontUrl: string };
}
export interface InjectFontFaceMessage {
  type: 'inject-font-face';
  data: { id: string; css: string };
}
export interface ToggleInlineEditModeMessage {
  type: 'toggle-inline-edit-mode';
  data: { dataSourceLocation: string; inlineEditingMode: boolean };
}
/** Top-level fields, not `data`, as the reference reads them. */
export interface FreezeVhUnitsMessage {
  type: 'freeze-vh-units';
  referenceVhBase: number | null;
}
export interface MeasurePageHeightMessage {
  type: 'measure-page-height';
  settleMs: number | null;
}
export interface SuppressAutoPopupsMessage {
  type: 'suppress-auto-popups';
}
export interface ToggleCanvasWheelZoomBridgeMessage {
  type: 'toggle-canvas-wheel-zoom-bridge';
}

export type IncomingMessage =
  | ToggleVisualEditModeMessage
  | UpdateClassesMessage
  | UpdateAttributeMessage
  | UpdateContentMessage
  | UnselectElementMessage
  | RefreshPageMessage
  | RequestElementPositionMessage
  | PopoverDragStateMessage
  | DropdownStateMessage
  | UpdateThemeVariablesMessage
  | InjectFontImportMessage
  | InjectFontFaceMessage
  | ToggleInlineEditModeMessage
  | FreezeVhUnitsMessage
  | MeasurePageHeightMessage
  | SuppressAutoPopupsMessage
  | ToggleCanvasWheelZoomBridgeMessage;

export type IncomingMessageType = IncomingMessage['type'];

type Parser<K extends IncomingMessageType> = (message: PlainObject) => Extract<IncomingMessage, { type: K }> | null;

/** `arrIndex`: absent, a non-negative integer or its decimal string; normalised to a string. */
function arrIndexOf(data: PlainObject): string | null | undefined {
  const value = ownField(data, 'arrIndex');
  if (value === undefined || value === null) return null;
  if (isNumberIn(value, 0, Number.MAX_SAFE_INTEGER) && Number.isInteger(value)) return String(value);
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return value;
  return undefined;
}

/** A boolean field of `data`, or null when `data` or the field is missing or not a boolean. */
function booleanOf(message: PlainObject, field: string): boolean | null {
  const data = dataOf(message);
  const value = data ? ownField(data, field) : undefined;
  return typeof value === 'boolean' ? value : null;
}

function themeVariables(value: unknown): [string, string][] | null {
  if (!isPlainObject(value)) return null;
  const names = Object.keys(value);
  if (names.length > MAX_THEME_VARIABLES) return null;
  const pairs: [string, string][] = [];
  for (const name of names) {
    const entry = ownField(value, name);
    if (!CUSTOM_PROPERTY_NAME.test(name) || !isBoundedString(entry, MAX_THEME_VALUE_LENGTH)) return null;
    pairs.push([name, entry]);
  }
  return pairs;
}

const payloadless =
  <K extends IncomingMessageType>(type: K): Parser<K> =>
  (message) =>
    hasNoPayloadOrEmpty(message) ? ({ type } as Extract<IncomingMessage, { type: K }>) : null;

const PARSERS: { [K in IncomingMessageType]: Parser<K> } = {
  'toggle-visual-edit-mode': (message) => {
    const data = dataOf(message);
    const enabled = data ? ownField(data, 'enabled') : undefined;
    if (typeof enabled !== 'boolean') return null;
    const specs = data ? ownField(data, 'specs') : undefined;
    if (specs !== undefined && specs !== null && !isPlainObject(specs)) return null;
    const inline = isPlainObject(specs) ? ownField(specs, 'newInlineEditEnabled') : undefined;
    if (inline !== undefined && typeof inline !== 'boolean') return null;
    return { type: 'toggle-visual-edit-mode', data: { enabled, inlineEditEnabled: inline ?? null } };
  },
  'update-classes': (message) => {
    const data = dataOf(message);
    if (!data) return null;
    const visualSelectorId = ownField(data, 'visualSelectorId');
    const classes = ownField(data, 'classes');
    if (!isSelectorId(visualSelectorId) || !isBoundedString(classes, MAX_CLASSES_LENGTH)) return null;
    return { type: 'update-classes', data: { visualSelectorId, classes } };
  },
  'update-attribute': (message) => {
    const data = dataOf(message);
    if (!data) return null;
    const visualSelectorId = ownField(data, 'visualSelectorId');
    const attribute = ownField(data, 'attribute');
    const value = ownField(data, 'value');
    const arrIndex = arrIndexOf(data);
    if (!isSelectorId(visualSelectorId) || !isBoundedString(attribute, 64) || arrIndex === undefined) return null;
    if (!isBoundedString(value, MAX_ATTRIBUTE_VALUE_LENGTH)) return null;
    return { type: 'update-attribute', data: { visualSelectorId, attribute, value, arrIndex } };
  },
  'update-content': (message) => {
    const data = dataOf(message);
    if (!data) return null;
    const visualSelectorId = ownField(data, 'visualSelectorId');
    const content = ownField(data, 'content');
    const arrIndex = arrIndexOf(data);
    if (!isSelectorId(visualSelectorId) || !isBoundedString(content, MAX_CONTENT_LENGTH) || arrIndex === undefined)
      return null;
    return { type: 'update-content', data: { visualSelectorId, content, arrIndex } };
  },
  'unselect-element': payloadless('unselect-element'),
  'refresh-page': payloadless('refresh-page'),
  'request-element-position': payloadless('request-element-position'),
  'popover-drag-state': (message) => {
    const value = booleanOf(message, 'isDragging');
    return value === null ? null : { type: 'popover-drag-state', data: { isDragging: value } };
  },
  'dropdown-state': (message) => {
    const value = booleanOf(message, 'isOpen');
    return value === null ? null : { type: 'dropdown-state', data: { isOpen: value } };
  },
  'update-theme-variables': (message) => {
    const data = dataOf(message);
    if (!data) return null;
    const variables = themeVariables(ownField(data, 'variables'));
    const mode = ownField(data, 'mode');
    if (variables === null || (mode !== undefined && mode !== null && mode !== 'light' && mode !== 'dark')) return null;
    return { type: 'update-theme-variables', data: { variables, mode: mode === 'dark' ? 'dark' : 'light' } };
  },
  'inject-font-import': (message) => {
    const data = dataOf(message);
    const fontUrl = data ? ownField(data, 'fontUrl') : undefined;
    if (!isBoundedString(fontUrl, MAX_FONT_URL_LENGTH) || fontUrl.length === 0) return null;
    return { type: 'inject-font-import', data: { fontUrl } };
  },
  'inject-font-face': (message) => {
    const data = dataOf(message);
    if (!data) return null;
    const id = ownField(data, 'id');
    const css = ownField(data, 'css');
    if (!isSelectorId(id) || id.trim() === '' || !isBoundedString(css, MAX_FONT_FACE_LENGTH)) return null;
    return { type: 'inject-font-face', data: { id, css } };
  },
  'toggle-inline-edit-mode': (message) => {
    const data = dataOf(message);
    if (!data) return null;
    const dataSourceLocation = ownField(data, 'dataSourceLocation');
    const inlineEditingMode = ownField(data, 'inlineEditingMode');
    if (!isSelectorId(dataSourceLocation) || typeof inlineEditingMode !== 'boolean') return null;
    return { type: 'toggle-inline-edit-mode', data: { dataSourceLocation, inlineEditingMode } };
  },
  'freeze-vh-units': (message) => {
    const base = ownField(message, 'referenceVhBase');
    // Like the reference, anything but a number means "detect it"; a number must be a sane height.
    if (typeof base !== 'number') return { type: 'freeze-vh-units', referenceVhBase: null };
    return isNumberIn(base, 1, MAX_REFERENCE_VH_BASE) ? { type: 'freeze-vh-units', referenceVhBase: base } : null;
  },
  'measure-page-height': (message) => {
    const settleMs = ownField(message, 'settleMs');
    if (typeof settleMs !== 'number') return { type: 'measure-page-height', settleMs: null };
    return isNumberIn(settleMs, 0, MAX_SETTLE_MS) ? { type: 'measure-page-height', settleMs } : null;
  },
  'suppress-auto-popups': payloadless('suppress-auto-popups'),
  'toggle-canvas-wheel-zoom-bridge': payloadless('toggle-canvas-wheel-zoom-bridge'),
};

export const INCOMING_MESSAGE_TYPES = Object.keys(PARSERS) as readonly IncomingMessageType[];

function isIncomingType(type: unknown): type is IncomingMessageType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(PARSERS, type);
}

/**
 * Validates `value` and returns a fresh, normalised copy holding only the known fields, or null when
 * it is not exactly one of the incoming messages.
 */
export function parseIncomingMessage(value: unknown): IncomingMessage | null {
  if (!isPlainObject(value)) return null;
  const type = ownField(value, 'type');
  if (!isIncomingType(type)) return null;
  return (PARSERS[type] as Parser<IncomingMessageType>)(value);
}

export function isIncomingMessage(value: unknown): value is IncomingMessage {
  return parseIncomingMessage(value) !== null;
}
