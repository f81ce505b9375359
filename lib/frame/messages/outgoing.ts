/**
 * Messages we send the editor (site -> editor): flat objects with a `type`, field for field what the
 * reference agent in `@base44/vite-plugin` 1.0.42 sends. They go to the pinned editor origin only
 * (see bridge.ts), never to `*`.
 */
import { MAX_CLASSES_LENGTH, MAX_CONTENT_LENGTH } from './shape';

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

/** What both element-selected and inline-edit say about an element. */
export interface ElementInfo {
  /** As the element reports it (`H1`); `IMG` for an image component. */
  tagName: string;
  classes: string;
  visualSelectorId: string | null;
  /** element-selected: innerText of text elements, else undefined; inline-edit: textContent. */
  content: string | undefined;
  dataSourceLocation: string | undefined;
  isDynamicContent: boolean;
  linenumber: string | undefined;
  filename: string | undefined;
  position: ElementPosition;
}

export interface ElementSelectedMessage extends ElementInfo {
  type: 'element-selected';
  /** The allowlisted attributes the element has (only `src`). */
  attributes: Record<string, string>;
  isTextElement: boolean;
  staticArrayName: string | null;
  staticArrayIndex: number | null;
  staticArrayField: string | null;
  collectionId: string | null;
  collectionItemField: string | null;
  collectionItemId: string | null;
}
export interface ElementPositionUpdateMessage {
  type: 'element-position-update';
  position: ElementPosition;
  isInViewport: boolean;
  visualSelectorId: string;
}
/** The layer menu opened: nothing is selected until the user picks a layer or goes back. */
export interface SelectionClearedMessage {
  type: 'unselect-element';
}
export interface CloseDropdownsMessage {
  type: 'close-dropdowns';
}
export interface ContentEditingMessage {
  type: 'content-editing-started' | 'content-editing-ended';
  visualSelectorId: string | null;
}
/** Inline text editing's write-back; the array fields only for static-array elements. */
export interface InlineEditMessage {
  type: 'inline-edit';
  elementInfo: ElementInfo;
  originalContent: string | undefined;
  newContent: string;
  arrIndex?: string;
  arrVariableName?: string;
  arrField?: string;
}
export interface PageHeightMeasuredMessage {
  type: 'page-height-measured';
  height: number;
}
export interface CanvasWheelZoomMessage {
  type: 'canvas-wheel-zoom';
  data: { deltaY: number; deltaMode: number; clientX: number; clientY: number; ctrlKey: boolean; metaKey: boolean };
}
export interface CanvasWheelPanMessage {
  type: 'canvas-wheel-pan';
  data: {
    deltaX: number;
    deltaY: number;
    deltaMode: number;
    clientX: number;
    clientY: number;
    shiftKey: boolean;
    ctrlKey: false;
    metaKey: false;
  };
}
/** Whether the page shows annotated (editable) content. */
export interface MountSignalMessage {
  type: 'sandbox:onMounted' | 'sandbox:onUnmounted';
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
  | SelectionClearedMessage
  | CloseDropdownsMessage
  | ContentEditingMessage
  | InlineEditMessage
  | PageHeightMeasuredMessage
  | CanvasWheelZoomMessage
  | CanvasWheelPanMessage
  | MountSignalMessage
  | AppChangedUrlMessage
  | AppErrorMessage;

export function agentReady(): AgentReadyMessage {
  return { type: 'visual-edit-agent-ready' };
}

function capped(text: string | undefined): string | undefined {
  return text === undefined ? undefined : text.slice(0, MAX_CONTENT_LENGTH);
}

export function elementSelected(details: Omit<ElementSelectedMessage, 'type'>): ElementSelectedMessage {
  return {
    type: 'element-selected',
    ...details,
    classes: details.classes.slice(0, MAX_CLASSES_LENGTH),
    content: capped(details.content),
  };
}

export function inlineEdit(details: Omit<InlineEditMessage, 'type'>): InlineEditMessage {
  return {
    type: 'inline-edit',
    ...details,
    elementInfo: { ...details.elementInfo, content: capped(details.elementInfo.content) },
    originalContent: capped(details.originalContent),
    newContent: details.newContent.slice(0, MAX_CONTENT_LENGTH),
  };
}

export function elementPositionUpdate(
  visualSelectorId: string,
  position: ElementPosition,
  isInViewport: boolean,
): ElementPositionUpdateMessage {
  return { type: 'element-position-update', position, isInViewport, visualSelectorId };
}

export function selectionCleared(): SelectionClearedMessage {
  return { type: 'unselect-element' };
}

export function closeDropdowns(): CloseDropdownsMessage {
  return { type: 'close-dropdowns' };
}

export function contentEditing(phase: 'started' | 'ended', visualSelectorId: string | null): ContentEditingMessage {
  return { type: phase === 'started' ? 'content-editing-started' : 'content-editing-ended', visualSelectorId };
}

export function pageHeightMeasured(height: number): PageHeightMeasuredMessage {
  return { type: 'page-height-measured', height };
}

export function mountSignal(mounted: boolean): MountSignalMessage {
  return { type: mounted ? 'sandbox:onMounted' : 'sandbox:onUnmounted' };
}

export function appChangedUrl(url: string): AppChangedUrlMessage {
  return { type: 'app_changed_url', url };
}

export function appError(error: ForwardedError): AppErrorMessage {
  return { type: 'app_error', error };
}
