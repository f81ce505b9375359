/**
 * The visual-edit agent: hover and selection outlines, click capture, element reports, and every
 * message of the reference agent in `@base44/vite-plugin` 1.0.42, with the same observable
 * behaviour (see docs/EDITOR-DEVIATIONS.md for the intended differences).
 *
 * It only ever receives messages that the bridge has already checked (source, origin, shape), and
 * it only posts through the bridge, which knows the one origin it may post to. The features live
 * in their own modules; this file holds the selection state and routes messages to them.
 */
import {
  closeDropdowns,
  elementPositionUpdate,
  elementSelected,
  selectionCleared,
  type IncomingMessage,
} from '../messages';
import type { VisualEditAgent, VisualEditAgentOptions } from './agent-types';
import { describeSelection, reportedTagName } from './describe';
import { listenForEditMode } from './edit-mode-events';
import { applyElementEdit } from './edits';
import { canStartEditing, createInlineEditor } from './inline-edit';
import { createLayerMenu } from './layer-menu';
import { OverlayLayer } from './overlays';
import { createPageFeatures } from './page-features';
import { addPageStyle, EDIT_MODE_CSS, freezeAnimations } from './page-styles';
import { isInViewport, positionOf } from './positions';
import { editableElementFrom, findElementsById, selectorIdOf } from './selection';
import { loadTailwindRuntime } from './tailwind-runtime';

export type { VisualEditAgent, VisualEditAgentOptions } from './agent-types';

/** docs/SPEC.md section 9: overlays re-sync this long after a change. */
export const RESYNC_DELAY_MS = 50;

export function createVisualEditAgent(options: VisualEditAgentOptions): VisualEditAgent {
  const { win, post } = options;
  const doc = win.document;
  const loadTailwind = options.loadTailwind ?? ((target: Document) => loadTailwindRuntime(target));
  const onProblem = options.onProblem ?? (() => undefined);
  const reload = options.reload ?? (() => win.location.reload());
  const overlays = new OverlayLayer(doc);

  let enabled = false;
  let dragging = false;
  let dropdownOpen = false;
  let hoveredId: string | null = null;
  let selectedId: string | null = null;
  let selectedElement: Element | null = null;
  let resyncTimer: ReturnType<typeof setTimeout> | null = null;
  let frameRequest: number | null = null;
  let removeEditStyle: (() => void) | null = null;
  let resumeAnimations: (() => void) | null = null;
  let stopListening: (() => void) | null = null;

  /** Outlines the elements of `id` with their tag label, as the reference agent does (none for the selection). */
  const showHover = (id: string | null) => {
    hoveredId = id;
    const targets = id === null || id === selectedId ? [] : findElementsById(win, id);
    const first = targets[0];
    if (first) overlays.hover.show(targets, reportedTagName(first).toLowerCase());
    else overlays.hover.clear();
  };

  const showSelection = () => {
    if (selectedId === null) {
      overlays.selected.clear();
      return;
    }
    const targets = findElementsById(win, selectedId);
    if (selectedElement && !selectedElement.isConnected) {
      // Re-rendered (an image swap): follow the element at the same static-array index.
      const index = selectedElement.getAttribute('data-arr-index');
      selectedElement = targets.find((target) => target.getAttribute('data-arr-index') === index) ?? targets[0] ?? null;
    }
    overlays.selected.show(targets, selectedElement ? selectedElement.tagName.toLowerCase() : null);
    const label = overlays.selected.firstLabel();
    if (label && selectedElement) layers.attach(label, selectedElement);
  };

  const layers = createLayerMenu({
    win,
    select: (element) => {
      const id = selectorIdOf(element);
      if (id !== null) select(element, id);
    },
    deselect: () => {
      selectedId = null;
      post(selectionCleared());
    },
    preview: (element) =>
      element ? overlays.hover.show([element], reportedTagName(element).toLowerCase()) : overlays.hover.clear(),
  });
  const inline = createInlineEditor({
    win,
    post,
    selectedId: () => selectedId,
    setOutlineHidden: (hidden) => overlays.selected.setHidden(hidden),
    syncOutlines: () => overlays.sync(),
    selectQuietly: (elements, id) => {
      selectedId = id;
      selectedElement = elements[0] ?? null;
      showSelection();
    },
  });
  const page = createPageFeatures({
    win,
    post,
    fontOrigins: options.fontOrigins ?? [],
    // The text being edited and the layer menu scroll as themselves.
    isOwnTarget: (target) => inline.owns(target) || layers.owns(target),
    onProblem,
  });

  const reportPosition = () => {
    if (selectedId === null || !selectedElement?.isConnected) return;
    const position = positionOf(selectedElement);
    post(elementPositionUpdate(selectedId, position, isInViewport(position, win)));
  };

  /** After a change, elements may have moved or been re-rendered: outline them again. */
  const scheduleResync = () => {
    if (resyncTimer !== null) clearTimeout(resyncTimer);
    resyncTimer = setTimeout(() => {
      resyncTimer = null;
      if (!enabled) return;
      showSelection();
      showHover(hoveredId);
    }, RESYNC_DELAY_MS);
  };

  const onScrollOrResize = () => {
    if (frameRequest !== null) return;
    frameRequest = win.requestAnimationFrame(() => {
      frameRequest = null;
      overlays.sync();
      if (enabled) reportPosition();
    });
  };

  const block = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    event.stopImmediatePropagation();
  };

  /** Blocks the app's pointer handling, except inside the text being edited inline (caret, selection). */
  const blockUnlessEditing = (event: Event) => {
    if (!inline.owns(event.target)) block(event);
  };

  const clearSelection = () => {
    inline.clearMarks(selectedId);
    selectedId = null;
    selectedElement = null;
    overlays.selected.clear();
  };

  const select = (element: Element, id: string) => {
    selectedId = id;
    selectedElement = element;
    showSelection();
    showHover(null);
    post(elementSelected(describeSelection(element, id)));
  };

  const onClick = (event: MouseEvent) => {
    if (!enabled) return;
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
    if (dropdownOpen) {
      post(closeDropdowns());
      return;
    }
    const element = editableElementFrom(event.target);
    const id = element ? selectorIdOf(element) : null;
    if (!element || id === null) return;
    // A second click on the selected text element starts editing it.
    if (id === selectedId && inline.enabled && canStartEditing(element)) {
      inline.start(element);
      return;
    }
    if (inline.enabled) inline.markSelected(findElementsById(win, id));
    select(element, id);
  };

  const onPointerMove = (event: MouseEvent) => {
    if (dragging || inline.isEditing()) return;
    const element = editableElementFrom(event.target);
    const id = element ? selectorIdOf(element) : null;
    if (id !== hoveredId) showHover(id);
  };

  const onPointerLeavePage = (event: MouseEvent) => {
    if (event.relatedTarget === null) showHover(null);
  };

  const enable = () => {
    if (enabled) return;
    enabled = true;
    removeEditStyle = addPageStyle(win, EDIT_MODE_CSS);
    resumeAnimations = freezeAnimations(doc);
    stopListening = listenForEditMode(win, {
      blockUnlessEditing,
      onClick,
      onPointerMove,
      onPointerLeavePage,
      onScrollOrResize,
    });
    loadTailwind(doc).catch((cause: unknown) => onProblem('Tailwind browser runtime failed to load', cause));
  };

  const disable = () => {
    if (!enabled) return;
    enabled = false;
    page.onEditModeOff();
    layers.close();
    inline.stop();
    clearSelection();
    removeEditStyle?.();
    resumeAnimations?.();
    removeEditStyle = null;
    resumeAnimations = null;
    stopListening?.();
    stopListening = null;
    if (frameRequest !== null) win.cancelAnimationFrame(frameRequest);
    if (resyncTimer !== null) clearTimeout(resyncTimer);
    frameRequest = null;
    resyncTimer = null;
    hoveredId = null;
    overlays.clear();
  };

  const handle = (message: IncomingMessage) => {
    if (page.handle(message)) return;
    switch (message.type) {
      case 'toggle-visual-edit-mode':
        if (message.data.enabled) enable();
        else disable();
        if (message.data.inlineEditEnabled !== null) inline.enabled = message.data.inlineEditEnabled;
        return;
      case 'update-classes':
      case 'update-attribute':
      case 'update-content': {
        // Without an index, an image in a list changes only where the selected one is.
        const selectedIndex = selectedElement?.getAttribute('data-arr-index') ?? null;
        const changed = applyElementEdit(win, message, (id) => (id === selectedId ? selectedIndex : null), onProblem);
        if (changed) scheduleResync();
        return;
      }
      case 'unselect-element':
        inline.stop();
        clearSelection();
        return;
      case 'refresh-page':
        reload();
        return;
      case 'request-element-position':
        reportPosition();
        return;
      case 'popover-drag-state':
        dragging = message.data.isDragging;
        if (dragging) showHover(null);
        return;
      case 'dropdown-state':
        dropdownOpen = message.data.isOpen;
        if (dropdownOpen) showHover(null);
        return;
      case 'toggle-inline-edit-mode':
        inline.toggle(message.data);
        return;
    }
  };

  return {
    handle,
    get enabled() {
      return enabled;
    },
    get selectedId() {
      return selectedId;
    },
    stop() {
      disable();
      page.stop();
    },
  };
}
