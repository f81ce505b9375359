/**
 * `toggle-canvas-wheel-zoom-bridge`: on the editor's canvas, the wheel pans and ctrl/cmd + wheel
 * zooms the canvas instead of scrolling the page. While on, wheel events over the page are taken
 * over and described to the editor as `canvas-wheel-zoom` or `canvas-wheel-pan`. Turned off with
 * edit mode, as in the reference.
 */
import type { OutgoingMessage } from '../messages';

export function createWheelBridge(
  win: Window,
  post: (message: OutgoingMessage) => void,
  /** Events over what the agent itself owns (the element being edited inline) stay the page's. */
  isOwnTarget: (target: EventTarget | null) => boolean,
): { enable(): void; disable(): void } {
  let enabled = false;

  const onWheel = (event: WheelEvent) => {
    if (isOwnTarget(event.target)) return;
    event.preventDefault();
    const { deltaX, deltaY, deltaMode, clientX, clientY, shiftKey, ctrlKey, metaKey } = event;
    if (ctrlKey || metaKey) {
      post({ type: 'canvas-wheel-zoom', data: { deltaY, deltaMode, clientX, clientY, ctrlKey, metaKey } });
      return;
    }
    post({
      type: 'canvas-wheel-pan',
      data: { deltaX, deltaY, deltaMode, clientX, clientY, shiftKey, ctrlKey: false, metaKey: false },
    });
  };

  return {
    enable() {
      if (enabled) return;
      enabled = true;
      win.addEventListener('wheel', onWheel, { capture: true, passive: false });
    },
    disable() {
      if (!enabled) return;
      enabled = false;
      win.removeEventListener('wheel', onWheel, true);
    },
  };
}
