/**
 * Inline text editing: the editor turns it on (`specs.newInlineEditEnabled`), a second click on a
 * selected text element (or `toggle-inline-edit-mode`) makes it contenteditable, and what the
 * user types goes back to the editor as `inline-edit` messages, 500 ms after the last keystroke,
 * exactly as the reference agent sends them. The page's text is never parsed as markup: we read
 * `textContent` and the browser's own editing changes the DOM.
 */
import { contentEditing, inlineEdit, type OutgoingMessage } from '../messages';
import { elementInfo } from './describe';
import { addPageStyle, INLINE_EDIT_CSS } from './page-styles';
import { findElementsById } from './selection';

export const INLINE_EDIT_DEBOUNCE_MS = 500;
/** Set on the selected elements while inline editing is on; only marked elements become editable. */
export const SELECTED_MARK = 'data-selected';

const EDITABLE_TAGS = new Set([
  'div',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'span',
  'li',
  'td',
  'a',
  'button',
  'label',
]);

function isHtmlElement(element: Element): element is HTMLElement {
  return element.namespaceURI === 'http://www.w3.org/1999/xhtml' && 'style' in element;
}

/** A leaf text element the user can type into (static-array text even when marked dynamic). */
export function isEditableText(element: Element): element is HTMLElement {
  if (!isHtmlElement(element) || !EDITABLE_TAGS.has(element.tagName.toLowerCase())) return false;
  if (!element.textContent?.trim() || element.children.length > 0) return false;
  if (element.hasAttribute('data-arr-field')) return true;
  return element.getAttribute('data-dynamic-content') !== 'true';
}

export function canStartEditing(element: Element): element is HTMLElement {
  return element.getAttribute(SELECTED_MARK) === 'true' && isEditableText(element);
}

export interface InlineEditHost {
  win: Window;
  post(message: OutgoingMessage): void;
  selectedId(): string | null;
  /** Hides the selection outline while typing (the caret is the marker) and brings it back. */
  setOutlineHidden(hidden: boolean): void;
  syncOutlines(): void;
  /** Replaces the selection with `elements`, without telling the editor (it asked for this). */
  selectQuietly(elements: Element[], id: string): void;
}

export interface InlineEditor {
  enabled: boolean;
  isEditing(): boolean;
  /** Whether `target` is inside the element being edited (its events belong to the user). */
  owns(target: EventTarget | null): boolean;
  start(element: HTMLElement): void;
  stop(): void;
  markSelected(elements: Element[]): void;
  clearMarks(id: string | null): void;
  toggle(data: { dataSourceLocation: string; inlineEditingMode: boolean }): void;
}

/** Places the caret's selection over all of `element`'s text. */
function selectContents(win: Window, element: HTMLElement): void {
  const range = win.document.createRange();
  range.selectNodeContents(element);
  const selection = win.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * What is typed into the element being edited, reported as `inline-edit` once typing pauses for
 * INLINE_EDIT_DEBOUNCE_MS, with the text before the change.
 */
function createTypingReporter(host: InlineEditHost): {
  watch(element: HTMLElement): void;
  /** Stops reporting; a change typed less than the debounce before is not sent (as in the reference). */
  unwatch(element: HTMLElement): void;
} {
  let pending: ReturnType<typeof setTimeout> | null = null;
  // Kept here, not in a data attribute, so the page's markup carries nothing of ours.
  const originalText = new WeakMap<HTMLElement, string>();

  const report = (element: HTMLElement) => {
    pending = null;
    const newContent = element.textContent ?? '';
    const message: Parameters<typeof inlineEdit>[0] = {
      elementInfo: elementInfo(element, host.selectedId(), newContent),
      originalContent: originalText.get(element),
      newContent,
    };
    if (element.getAttribute('data-arr-field')) {
      message.arrIndex = element.getAttribute('data-arr-index') ?? undefined;
      message.arrVariableName = element.getAttribute('data-arr-variable-name') ?? undefined;
      message.arrField = element.getAttribute('data-arr-field') ?? undefined;
    }
    host.post(inlineEdit(message));
    originalText.set(element, newContent);
  };

  const onInput = (event: Event) => {
    const element = event.currentTarget as HTMLElement;
    host.syncOutlines();
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(() => report(element), INLINE_EDIT_DEBOUNCE_MS);
  };

  return {
    watch(element) {
      originalText.set(element, element.textContent ?? '');
      element.addEventListener('input', onInput);
    },
    unwatch(element) {
      if (pending !== null) clearTimeout(pending);
      pending = null;
      element.removeEventListener('input', onInput);
      originalText.delete(element);
    },
  };
}

export function createInlineEditor(host: InlineEditHost): InlineEditor {
  const { win } = host;
  let editing: HTMLElement | null = null;
  let previousCursor = '';
  let removeStyle: (() => void) | null = null;
  const typing = createTypingReporter(host);

  const editor: InlineEditor = {
    enabled: false,
    isEditing: () => editing !== null,
    owns: (target) => {
      const node = target as Node | null;
      return (
        editing !== null && node !== null && typeof node === 'object' && 'nodeType' in node && editing.contains(node)
      );
    },
    start(element) {
      editing = element;
      host.setOutlineHidden(true);
      removeStyle ??= addPageStyle(win, INLINE_EDIT_CSS);
      typing.watch(element);
      previousCursor = element.style.cursor;
      element.setAttribute('contenteditable', 'true');
      element.style.cursor = 'text';
      selectContents(win, element);
      setTimeout(() => {
        if (element.isConnected) element.focus();
      }, 0);
      host.post(contentEditing('started', host.selectedId()));
    },
    stop() {
      const element = editing;
      if (element === null) return;
      typing.unwatch(element);
      if (element.isConnected) {
        removeStyle?.();
        removeStyle = null;
        element.setAttribute('contenteditable', 'false');
        element.style.cursor = previousCursor;
      }
      host.setOutlineHidden(false);
      host.syncOutlines();
      host.post(contentEditing('ended', host.selectedId()));
      editing = null;
    },
    markSelected(elements) {
      for (const element of elements) if (isHtmlElement(element)) element.setAttribute(SELECTED_MARK, 'true');
    },
    clearMarks(id) {
      if (id === null) return;
      for (const element of findElementsById(win, id)) element.removeAttribute(SELECTED_MARK);
    },
    toggle({ dataSourceLocation, inlineEditingMode }) {
      if (!editor.enabled) return;
      const elements = findElementsById(win, dataSourceLocation);
      const [first] = elements;
      if (!first || !isHtmlElement(first)) return;
      if (!inlineEditingMode) {
        if (editing === first) editor.stop();
        return;
      }
      if (!canStartEditing(first)) return;
      if (host.selectedId() !== dataSourceLocation) {
        editor.stop();
        editor.clearMarks(host.selectedId());
        editor.markSelected(elements);
        host.selectQuietly(elements, dataSourceLocation);
      }
      editor.start(first);
    },
  };
  return editor;
}
