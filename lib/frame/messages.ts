/**
 * The editor protocol (SPEC.md section 7, PLATFORM-NOTES.md "Parent frame"): every message the
 * editor may send us, a type guard for each, and builders for every message we send.
 *
 * Incoming data comes from another origin, so nothing here trusts it: each guard checks the exact
 * shape and caps every string, and `parseIncomingMessage` copies only the known fields into a fresh
 * object, so later code never touches anything else the sender attached.
 */

/** Longest selector id we look up (a `path:line:col` or a `data-visual-selector-id` value). */
export const MAX_SELECTOR_ID_LENGTH = 512;
/** Longest class string the editor may apply; far above any real Tailwind class list. */
export const MAX_CLASSES_LENGTH = 4096;
/** Longest text the editor may put into an element, and the longest text we report back. */
export const MAX_CONTENT_LENGTH = 10_000;

// ---------------------------------------------------------------------------------------------
// Incoming (editor -> site). Each is `{ type, data }`; `data` may be absent when it carries nothing.
// ---------------------------------------------------------------------------------------------

export interface ToggleVisualEditModeMessage {
  type: 'toggle-visual-edit-mode';
  data: { enabled: boolean };
}
export interface UpdateClassesMessage {
  type: 'update-classes';
  /** `replace: true` sets the class list to `classes`; otherwise `classes` are added to it. */
  data: { visualSelectorId: string; classes: string; replace: boolean };
}
export interface UpdateContentMessage {
  type: 'update-content';
  data: { visualSelectorId: string; content: string };
}
export interface UnselectElementMessage {
  type: 'unselect-element';
}
export interface RefreshPageMessage {
  type: 'refresh-page';
}
export interface RequestElementPositionMessage {
  type: 'request-element-position';
  /** null = the element currently selected. */
  data: { visualSelectorId: string | null };
}
export interface PopoverDragStateMessage {
  type: 'popover-drag-state';
  data: { isDragging: boolean };
}
export interface DropdownStateMessage {
  type: 'dropdown-state';
  data: { isOpen: boolean };
}

export type IncomingMessage =
  | ToggleVisualEditModeMessage
  | UpdateClassesMessage
  | UpdateContentMessage
  | UnselectElementMessage
  | RefreshPageMessage
  | RequestElementPositionMessage
  | PopoverDragStateMessage
  | DropdownStateMessage;

export type IncomingMessageType = IncomingMessage['type'];

export const INCOMING_MESSAGE_TYPES: readonly IncomingMessageType[] = [
  'toggle-visual-edit-mode',
  'update-classes',
  'update-content',
  'unselect-element',
  'refresh-page',
  'request-element-position',
  'popover-drag-state',
  'dropdown-state',
];

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// C0 controls and DEL never belong in an id; refusing them keeps ids printable in logs and selectors.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A non-empty, printable id of bounded length. */
export function isSelectorId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_SELECTOR_ID_LENGTH &&
    !CONTROL_CHARACTERS.test(value)
  );
}

function isBoundedString(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** The message envelope: a plain object whose `type` is one we know. */
function envelope(value: unknown, type: IncomingMessageType): PlainObject | null {
  return isPlainObject(value) && value.type === type ? value : null;
}

/** `data` of a message that carries nothing: absent, null or a plain object (its fields ignored). */
function hasNoPayloadOrEmpty(message: PlainObject): boolean {
  const { data } = message;
  return data === undefined || data === null || isPlainObject(data);
}

export function isToggleVisualEditModeMessage(value: unknown): value is ToggleVisualEditModeMessage {
  const message = envelope(value, 'toggle-visual-edit-mode');
  return message !== null && isPlainObject(message.data) && typeof message.data.enabled === 'boolean';
}

/** Accepts an optional `replace`; `parseIncomingMessage` turns a missing one into false. */
export function isUpdateClassesMessage(
  value: unknown,
): value is { type: 'update-classes'; data: { visualSelectorId: string; classes: string; replace?: boolean } } {
  const message = envelope(value, 'update-classes');
  if (message === null || !isPlainObject(message.data)) return false;
  const { visualSelectorId, classes, replace } = message.data;
  return (
    isSelectorId(visualSelectorId) &&
    isBoundedString(classes, MAX_CLASSES_LENGTH) &&
    (replace === undefined || typeof replace === 'boolean')
  );
}

export function isUpdateContentMessage(value: unknown): value is UpdateContentMessage {
  const message = envelope(value, 'update-content');
  if (message === null || !isPlainObject(message.data)) return false;
  return isSelectorId(message.data.visualSelectorId) && isBoundedString(message.data.content, MAX_CONTENT_LENGTH);
}

export function isUnselectElementMessage(value: unknown): value is UnselectElementMessage {
  const message = envelope(value, 'unselect-element');
  return message !== null && hasNoPayloadOrEmpty(message);
}

export function isRefreshPageMessage(value: unknown): value is RefreshPageMessage {
  const message = envelope(value, 'refresh-page');
  return message !== null && hasNoPayloadOrEmpty(message);
}

/** `data` may be absent (use the selection) or carry an optional `visualSelectorId`. */
export function isRequestElementPositionMessage(
  value: unknown,
): value is { type: 'request-element-position'; data?: { visualSelectorId?: string } | null } {
  const message = envelope(value, 'request-element-position');
  if (message === null || !hasNoPayloadOrEmpty(message)) return false;
  const { data } = message;
  if (!isPlainObject(data) || data.visualSelectorId === undefined || data.visualSelectorId === null) return true;
  return isSelectorId(data.visualSelectorId);
}

export function isPopoverDragStateMessage(value: unknown): value is PopoverDragStateMessage {
  const message = envelope(value, 'popover-drag-state');
  return message !== null && isPlainObject(message.data) && typeof message.data.isDragging === 'boolean';
}

export function isDropdownStateMessage(value: unknown): value is DropdownStateMessage {
  const message = envelope(value, 'dropdown-state');
  return message !== null && isPlainObject(message.data) && typeof message.data.isOpen === 'boolean';
}

/**
 * Validates `value` and returns a fresh, normalised copy holding only the known fields, or null when
 * it is not exactly one of the incoming messages.
 */
export function parseIncomingMessage(value: unknown): IncomingMessage | null {
  if (isToggleVisualEditModeMessage(value)) {
    return { type: value.type, data: { enabled: value.data.enabled } };
  }
  if (isUpdateClassesMessage(value)) {
    const { visualSelectorId, classes, replace } = value.data;
    return { type: value.type, data: { visualSelectorId, classes, replace: replace === true } };
  }
  if (isUpdateContentMessage(value)) {
    return { type: value.type, data: { visualSelectorId: value.data.visualSelectorId, content: value.data.content } };
  }
  if (isUnselectElementMessage(value)) return { type: 'unselect-element' };
  if (isRefreshPageMessage(value)) return { type: 'refresh-page' };
  if (isRequestElementPositionMessage(value)) {
    const id = value.data?.visualSelectorId;
    return { type: 'request-element-position', data: { visualSelectorId: typeof id === 'string' ? id : null } };
  }
  if (isPopoverDragStateMessage(value)) {
    return { type: value.type, data: { isDragging: value.data.isDragging } };
  }
  if (isDropdownStateMessage(value)) {
    return { type: value.type, data: { isOpen: value.data.isOpen } };
  }
  return null;
}

export function isIncomingMessage(value: unknown): value is IncomingMessage {
  return parseIncomingMessage(value) !== null;
}

// ---------------------------------------------------------------------------------------------
// Outgoing (site -> editor). Flat objects with a `type`.
// ---------------------------------------------------------------------------------------------

/** An element's box in viewport pixels (getBoundingClientRect), plus its centre. */
export interface ElementPosition {
  top: number;
  left: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
  centerX: number;
  centerY: number;
}

export interface AgentReadyMessage {
  type: 'visual-edit-agent-ready';
}
/** What the editor is told about a selected element (besides its position). */
export interface ElementDescription {
  tagName: string;
  classes: string;
  visualSelectorId: string;
  content: string;
  dataSourceLocation: string | null;
  isDynamicContent: boolean;
}
export interface ElementSelectedMessage extends ElementDescription {
  type: 'element-selected';
  position: ElementPosition;
}
export interface ElementPositionUpdateMessage {
  type: 'element-position-update';
  position: ElementPosition;
  isInViewport: boolean;
  visualSelectorId: string;
}
export interface CloseDropdownsMessage {
  type: 'close-dropdowns';
}
export interface AppChangedUrlMessage {
  type: 'app_changed_url';
  url: string;
}
/** What the editor learns about an uncaught error; strings are capped by the error forwarder. */
export interface ForwardedError {
  title: string;
  details: string;
  componentName: string | null;
  stack: string | null;
}
export interface AppErrorMessage {
  type: 'app_error';
  error: ForwardedError;
}

export type OutgoingMessage =
  | AgentReadyMessage
  | ElementSelectedMessage
  | ElementPositionUpdateMessage
  | CloseDropdownsMessage
  | AppChangedUrlMessage
  | AppErrorMessage;

export function agentReady(): AgentReadyMessage {
  return { type: 'visual-edit-agent-ready' };
}

export function elementSelected(details: Omit<ElementSelectedMessage, 'type'>): ElementSelectedMessage {
  return {
    type: 'element-selected',
    ...details,
    classes: details.classes.slice(0, MAX_CLASSES_LENGTH),
    content: details.content.slice(0, MAX_CONTENT_LENGTH),
  };
}

export function elementPositionUpdate(
  visualSelectorId: string,
  position: ElementPosition,
  isInViewport: boolean,
): ElementPositionUpdateMessage {
  return { type: 'element-position-update', position, isInViewport, visualSelectorId };
}

export function closeDropdowns(): CloseDropdownsMessage {
  return { type: 'close-dropdowns' };
}

export function appChangedUrl(url: string): AppChangedUrlMessage {
  return { type: 'app_changed_url', url };
}

export function appError(error: ForwardedError): AppErrorMessage {
  return { type: 'app_error', error };
}
