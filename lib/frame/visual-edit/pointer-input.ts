/**
 * The page's pointer in edit mode: hovering outlines an element, a click selects it (or starts
 * inline editing on a second click, or closes what is open), and the app sees none of it, except
 * inside the text being edited inline (caret, selection).
 */
import { closeDropdowns, type OutgoingMessage } from '../messages';
import type { EditModeHandlers } from './edit-mode-events';
import { canStartEditing, type InlineEditor } from './inline-edit';
import type { LayerMenu } from './layer-menu';
import { editableElementFrom, findElementsById, selectorIdOf } from './selection';
import type { SelectionState } from './selection-state';

export interface PointerInputHost {
  win: Window;
  post: (message: OutgoingMessage) => void;
  selection: SelectionState;
  inline: InlineEditor;
  layers: LayerMenu;
  isEnabled(): boolean;
  /** The editor is dragging its popover: the hover outline waits. */
  isDragging(): boolean;
  /** A dropdown of the editor is open: the next click only closes it. */
  isDropdownOpen(): boolean;
}

export type PointerInput = Omit<EditModeHandlers, 'onScrollOrResize'>;

function block(event: Event): void {
  event.preventDefault();
  event.stopPropagation();
  event.stopImmediatePropagation();
}

export function createPointerInput(host: PointerInputHost): PointerInput {
  const { win, selection, inline, layers } = host;
  const onClick = (event: MouseEvent) => {
    if (!host.isEnabled()) return;
    // The layer menu and its label handle their own clicks; a click anywhere else closes the menu.
    if (layers.owns(event.target)) return;
    layers.close();
    // A click inside the text being edited places the caret.
    if (inline.enabled && inline.owns(event.target)) return;
    block(event);
    // Clicking anywhere else ends inline editing, and only that.
    if (inline.isEditing()) {
      inline.stop();
      return;
    }
    if (host.isDropdownOpen()) {
      host.post(closeDropdowns());
      return;
    }
    const element = editableElementFrom(event.target);
    const id = element ? selectorIdOf(element) : null;
    if (!element || id === null) return;
    // A second click on the selected text element starts editing it.
    if (id === selection.selectedId && inline.enabled && canStartEditing(element)) {
      inline.start(element);
      return;
    }
    if (inline.enabled) inline.markSelected(findElementsById(win, id));
    selection.select(element, id);
  };
  return {
    // Blocks the app's pointer handling, except inside the text being edited inline.
    blockUnlessEditing: (event) => {
      if (!inline.owns(event.target)) block(event);
    },
    onClick,
    onPointerMove: (event) => {
      if (host.isDragging() || inline.isEditing()) return;
      const element = editableElementFrom(event.target);
      const id = element ? selectorIdOf(element) : null;
      if (id !== selection.hoveredId) selection.showHover(id);
    },
    onPointerLeavePage: (event) => {
      if (event.relatedTarget === null) selection.showHover(null);
    },
  };
}
