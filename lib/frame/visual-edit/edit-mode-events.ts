/** Pointer events that would make the app act (follow a link, press a button, focus an input). */
const CAPTURED_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'dblclick', 'auxclick'] as const;

export interface EditModeHandlers {
  /** Keeps a pointer event from the app (unless it belongs to the text being edited inline). */
  blockUnlessEditing: (event: Event) => void;
  onClick: (event: MouseEvent) => void;
  /**
   * Every pointer move, not only entering an element (mouseover): after the editor stops dragging
   * its popover, a move within the element under the pointer must outline it again.
   */
  onPointerMove: (event: MouseEvent) => void;
  onPointerLeavePage: (event: MouseEvent) => void;
  onScrollOrResize: () => void;
}

/**
 * Listens to the page events edit mode needs, in the capture phase so the agent sees them before
 * the app does; returns the function that removes every one of them.
 */
export function listenForEditMode(win: Window, handlers: EditModeHandlers): () => void {
  const doc = win.document;
  const { blockUnlessEditing, onClick, onPointerMove, onPointerLeavePage, onScrollOrResize } = handlers;
  for (const type of CAPTURED_EVENTS) win.addEventListener(type, blockUnlessEditing, true);
  win.addEventListener('click', onClick, true);
  win.addEventListener('mousemove', onPointerMove, { capture: true, passive: true });
  doc.addEventListener('mouseout', onPointerLeavePage, true);
  win.addEventListener('scroll', onScrollOrResize, { capture: true, passive: true });
  win.addEventListener('resize', onScrollOrResize, { passive: true });
  return () => {
    for (const type of CAPTURED_EVENTS) win.removeEventListener(type, blockUnlessEditing, true);
    win.removeEventListener('click', onClick, true);
    win.removeEventListener('mousemove', onPointerMove, true);
    doc.removeEventListener('mouseout', onPointerLeavePage, true);
    win.removeEventListener('scroll', onScrollOrResize, true);
    win.removeEventListener('resize', onScrollOrResize);
  };
}
