/**
 * What the editor has selected and what the pointer hovers, and their outlines: the agent's one
 * piece of state about elements. Selecting reports the element to the editor; the position of the
 * selection is reported on request and while the page scrolls.
 */
import { elementPositionUpdate, elementSelected, type OutgoingMessage } from '../messages';
import { describeSelection, reportedTagName } from './describe';
import type { OverlayLayer } from './overlays';
import { isInViewport, positionOf } from './positions';
import { findElementsById } from './selection';

export interface SelectionState {
  readonly hoveredId: string | null;
  readonly selectedId: string | null;
  readonly selectedElement: Element | null;
  /** Outlines the elements of `id` with their tag label (none for the selection itself). */
  showHover(id: string | null): void;
  /** Outlines the selection again, following a re-rendered element to its replacement. */
  showSelection(): void;
  /** Selects `element` (whose selector id is `id`) and tells the editor. */
  select(element: Element, id: string): void;
  /** Selects without telling the editor (inline editing picked the element itself). */
  selectQuietly(elements: Element[], id: string): void;
  /** Forgets the selection id only (the layer menu deselected; the outline stays until the next sync). */
  forgetSelectedId(): void;
  /** Drops the selection and its outline (the hover stays). */
  clear(): void;
  /** Tells the editor where the selection is now. */
  reportPosition(): void;
}

export function createSelectionState(host: {
  win: Window;
  overlays: OverlayLayer;
  post: (message: OutgoingMessage) => void;
  /** The selection's outline got its label: the layer menu opens from it. */
  onSelectionLabel: (label: HTMLElement, selected: Element) => void;
}): SelectionState {
  const { win, overlays, post } = host;
  let hoveredId: string | null = null;
  let selectedId: string | null = null;
  let selectedElement: Element | null = null;

  const state: SelectionState = {
    get hoveredId() {
      return hoveredId;
    },
    get selectedId() {
      return selectedId;
    },
    get selectedElement() {
      return selectedElement;
    },
    showHover(id) {
      hoveredId = id;
      const targets = id === null || id === selectedId ? [] : findElementsById(win, id);
      const first = targets[0];
      if (first) overlays.hover.show(targets, reportedTagName(first).toLowerCase());
      else overlays.hover.clear();
    },
    showSelection() {
      if (selectedId === null) {
        overlays.selected.clear();
        return;
      }
      const targets = findElementsById(win, selectedId);
      if (selectedElement && !selectedElement.isConnected) {
        // Re-rendered (an image swap): follow the element at the same static-array index.
        const index = selectedElement.getAttribute('data-arr-index');
        selectedElement =
          targets.find((target) => target.getAttribute('data-arr-index') === index) ?? targets[0] ?? null;
      }
      overlays.selected.show(targets, selectedElement ? selectedElement.tagName.toLowerCase() : null);
      const label = overlays.selected.firstLabel();
      if (label && selectedElement) host.onSelectionLabel(label, selectedElement);
    },
    select(element, id) {
      selectedId = id;
      selectedElement = element;
      state.showSelection();
      state.showHover(null);
      post(elementSelected(describeSelection(element, id)));
    },
    selectQuietly(elements, id) {
      selectedId = id;
      selectedElement = elements[0] ?? null;
      state.showSelection();
    },
    forgetSelectedId() {
      selectedId = null;
    },
    clear() {
      selectedId = null;
      selectedElement = null;
      overlays.selected.clear();
    },
    reportPosition() {
      if (selectedId === null || !selectedElement?.isConnected) return;
      const position = positionOf(selectedElement);
      post(elementPositionUpdate(selectedId, position, isInViewport(position, win)));
    },
  };
  return state;
}
