/**
 * The visual-edit agent: hover and selection outlines, click capture, element reports, and every
 * message of the reference agent in `@base44/vite-plugin` 1.0.42, with the same observable
 * behaviour (see docs/EDITOR-DEVIATIONS.md for the intended differences).
 *
 * It only ever receives messages that the bridge has already checked (source, origin, shape), and
 * it only posts through the bridge, which knows the one origin it may post to. The features live
 * in their own modules (selection state, pointer input, edit mode, layer menu, inline editing, page
 * features); this file wires them together and gives every message type its handler.
 */
import {
  dispatchIncomingMessage,
  selectionCleared,
  type IncomingMessage,
  type IncomingMessageHandlers,
} from '../messages';
import type { VisualEditAgent, VisualEditAgentOptions } from './agent-types';
import { reportedTagName } from './describe';
import { createEditMode, type EditMode } from './edit-mode';
import { applyElementEdit } from './edits';
import { createInlineEditor, type InlineEditor } from './inline-edit';
import { createLayerMenu, type LayerMenu } from './layer-menu';
import { OverlayLayer } from './overlays';
import { createPageFeatures, type PageFeatures, type PageMessageType } from './page-features';
import { createPointerInput } from './pointer-input';
import { selectorIdOf } from './selection';
import { createSelectionState, type SelectionState } from './selection-state';
import { tailwindRuntimeLoader } from './tailwind-runtime';

export type { VisualEditAgent, VisualEditAgentOptions } from './agent-types';
export { RESYNC_DELAY_MS } from './edit-mode';

/** The parts of the agent that act on editor messages. */
interface AgentParts {
  selection: SelectionState;
  inline: InlineEditor;
  editMode: EditMode;
  /** The editor's own popover and dropdowns, which pause hovering while they are in use. */
  editorUi: { dragging: boolean; dropdownOpen: boolean };
}

/** The messages about elements and edit mode (the page-wide ones are page-features.ts'). */
function elementMessageHandlers(
  win: Window,
  options: VisualEditAgentOptions,
  parts: AgentParts & { disable(): void; clearSelection(): void },
): IncomingMessageHandlers<Exclude<IncomingMessage['type'], PageMessageType>> {
  const { selection, inline, editMode, editorUi } = parts;
  const onProblem = options.onProblem ?? (() => undefined);
  const applyEdit = (message: Parameters<typeof applyElementEdit>[1]) => {
    // Without an index, an image in a list changes only where the selected one is.
    const selectedIndex = selection.selectedElement?.getAttribute('data-arr-index') ?? null;
    const sameSelection = (id: string) => (id === selection.selectedId ? selectedIndex : null);
    if (applyElementEdit(win, message, sameSelection, onProblem)) editMode.scheduleResync();
  };
  return {
    'toggle-visual-edit-mode': ({ data }) => {
      if (data.enabled) editMode.enable();
      else parts.disable();
      if (data.inlineEditEnabled !== null) inline.enabled = data.inlineEditEnabled;
    },
    'update-classes': applyEdit,
    'update-attribute': applyEdit,
    'update-content': applyEdit,
    'unselect-element': () => {
      inline.stop();
      parts.clearSelection();
    },
    'refresh-page': () => (options.reload ?? (() => win.location.reload()))(),
    'request-element-position': () => selection.reportPosition(),
    'popover-drag-state': ({ data }) => {
      editorUi.dragging = data.isDragging;
      if (editorUi.dragging) selection.showHover(null);
    },
    'dropdown-state': ({ data }) => {
      editorUi.dropdownOpen = data.isOpen;
      if (editorUi.dropdownOpen) selection.showHover(null);
    },
    'toggle-inline-edit-mode': ({ data }) => inline.toggle(data),
  };
}

/** The layer menu of the selection's label, and the inline editor of the selected text. */
function createEditors(
  options: VisualEditAgentOptions,
  overlays: OverlayLayer,
  selection: SelectionState,
): { layers: LayerMenu; inline: InlineEditor } {
  const { win, post } = options;
  const layers = createLayerMenu({
    win,
    select: (element) => {
      const id = selectorIdOf(element);
      if (id !== null) selection.select(element, id);
    },
    deselect: () => {
      selection.forgetSelectedId();
      post(selectionCleared());
    },
    preview: (element) =>
      element ? overlays.hover.show([element], reportedTagName(element).toLowerCase()) : overlays.hover.clear(),
  });
  const inline = createInlineEditor({
    win,
    post,
    selectedId: () => selection.selectedId,
    setOutlineHidden: (hidden) => overlays.selected.setHidden(hidden),
    syncOutlines: () => overlays.sync(),
    selectQuietly: (elements, id) => selection.selectQuietly(elements, id),
  });
  return { layers, inline };
}

export function createVisualEditAgent(options: VisualEditAgentOptions): VisualEditAgent {
  const { win, post } = options;
  const onProblem = options.onProblem ?? (() => undefined);
  const overlays = new OverlayLayer(win.document);
  const editorUi = { dragging: false, dropdownOpen: false };
  const selection = createSelectionState({
    win,
    overlays,
    post,
    // Called from the first selection on, by when the layer menu below exists.
    onSelectionLabel: (label, selected) => layers.attach(label, selected),
  });
  const { layers, inline } = createEditors(options, overlays, selection);
  const page: PageFeatures = createPageFeatures({
    win,
    post,
    fontOrigins: options.fontOrigins ?? [],
    // The text being edited and the layer menu scroll as themselves.
    isOwnTarget: (target) => inline.owns(target) || layers.owns(target),
    onProblem,
  });
  const editMode = createEditMode({
    win,
    pointer: createPointerInput({
      win,
      post,
      selection,
      inline,
      layers,
      isEnabled: () => editMode.enabled,
      isDragging: () => editorUi.dragging,
      isDropdownOpen: () => editorUi.dropdownOpen,
    }),
    loadTailwind: options.loadTailwind ?? tailwindRuntimeLoader(),
    onProblem,
    onScrollFrame: (enabled) => {
      overlays.sync();
      if (enabled) selection.reportPosition();
    },
    resync: () => {
      selection.showSelection();
      selection.showHover(selection.hoveredId);
    },
  });

  const clearSelection = () => {
    inline.clearMarks(selection.selectedId);
    selection.clear();
  };
  const disable = () => {
    if (!editMode.enabled) return;
    page.onEditModeOff();
    layers.close();
    inline.stop();
    clearSelection();
    editMode.disable();
    selection.showHover(null);
    overlays.clear();
  };
  const handlers: IncomingMessageHandlers = {
    ...page.handlers,
    ...elementMessageHandlers(win, options, { selection, inline, editMode, editorUi, disable, clearSelection }),
  };

  return {
    handle: (message) => dispatchIncomingMessage(handlers, message),
    get enabled() {
      return editMode.enabled;
    },
    get selectedId() {
      return selection.selectedId;
    },
    stop() {
      disable();
      page.stop();
    },
  };
}
