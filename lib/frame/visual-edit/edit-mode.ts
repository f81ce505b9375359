/**
 * Edit mode switched on and off: the page's look (crosshair, frozen animations), the pointer and
 * scroll listeners, Tailwind's browser runtime for class edits, and the timers that keep the
 * outlines where the elements are (once per animation frame while scrolling, once after a change).
 */
import { listenForEditMode } from './edit-mode-events';
import { addPageStyle, EDIT_MODE_CSS, freezeAnimations } from './page-styles';
import type { PointerInput } from './pointer-input';

/** docs/SPEC.md section 9: overlays re-sync this long after a change. */
export const RESYNC_DELAY_MS = 50;

export interface EditModeHost {
  win: Window;
  pointer: PointerInput;
  loadTailwind: (doc: Document) => Promise<void>;
  onProblem: (problem: string, cause?: unknown) => void;
  /** Once per animation frame while the page scrolls or resizes. */
  onScrollFrame: (enabled: boolean) => void;
  /** After a change: outline the elements again (they may have moved or been re-rendered). */
  resync: () => void;
}

export interface EditMode {
  readonly enabled: boolean;
  enable(): void;
  /** Takes back what enable() added; does nothing when edit mode is off. */
  disable(): void;
  /** Re-syncs the outlines after RESYNC_DELAY_MS (a later change postpones it). */
  scheduleResync(): void;
}

export function createEditMode(host: EditModeHost): EditMode {
  const { win } = host;
  let enabled = false;
  let undo: (() => void)[] = [];
  let resyncTimer: ReturnType<typeof setTimeout> | null = null;
  let frameRequest: number | null = null;

  const onScrollOrResize = () => {
    if (frameRequest !== null) return;
    frameRequest = win.requestAnimationFrame(() => {
      frameRequest = null;
      host.onScrollFrame(enabled);
    });
  };

  return {
    get enabled() {
      return enabled;
    },
    enable() {
      if (enabled) return;
      enabled = true;
      undo = [
        addPageStyle(win, EDIT_MODE_CSS),
        freezeAnimations(win.document),
        listenForEditMode(win, { ...host.pointer, onScrollOrResize }),
      ];
      host
        .loadTailwind(win.document)
        .catch((cause: unknown) => host.onProblem('Tailwind browser runtime failed to load', cause));
    },
    disable() {
      if (!enabled) return;
      enabled = false;
      for (const step of undo.splice(0)) step();
      if (frameRequest !== null) win.cancelAnimationFrame(frameRequest);
      if (resyncTimer !== null) clearTimeout(resyncTimer);
      frameRequest = null;
      resyncTimer = null;
    },
    scheduleResync() {
      if (resyncTimer !== null) clearTimeout(resyncTimer);
      resyncTimer = setTimeout(() => {
        resyncTimer = null;
        if (enabled) host.resync();
      }, RESYNC_DELAY_MS);
    },
  };
}
