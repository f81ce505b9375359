/**
 * The editor's page-wide features, which act on the page rather than on a selected element:
 * theme and font previews, canvas sizing (viewport-height freeze, page height), pop-up
 * suppression and the canvas wheel bridge. Routed here by the agent.
 */
import type { IncomingMessage, OutgoingMessage } from '../messages';
import { createPageHeightController } from './page-height';
import { createPopupSuppressor } from './popup-suppressor';
import { applyThemeVariables, injectFontFace, injectFontImport } from './theme';
import { createWheelBridge } from './wheel-bridge';

export interface PageFeatures {
  /** Handles `message` when it is one of the page-wide ones; returns whether it was. */
  handle(message: IncomingMessage): boolean;
  /** Edit mode turned off: the wheel goes back to the page, as in the reference. */
  onEditModeOff(): void;
  stop(): void;
}

export function createPageFeatures(options: {
  win: Window;
  post: (message: OutgoingMessage) => void;
  fontOrigins: readonly string[];
  isOwnTarget: (target: EventTarget | null) => boolean;
  onProblem: (problem: string) => void;
}): PageFeatures {
  const { win, post, fontOrigins, onProblem } = options;
  const doc = win.document;
  const pageHeight = createPageHeightController(win, post);
  const popups = createPopupSuppressor(win);
  const wheel = createWheelBridge(win, post, options.isOwnTarget);

  return {
    handle(message) {
      switch (message.type) {
        case 'update-theme-variables':
          if (!applyThemeVariables(doc, message.data.variables, message.data.mode))
            onProblem('update-theme-variables: no .dark element');
          return true;
        case 'inject-font-import':
          if (!injectFontImport(doc, message.data.fontUrl, fontOrigins))
            onProblem('inject-font-import refused: font origin not allowed');
          return true;
        case 'inject-font-face':
          if (!injectFontFace(doc, message.data.id, message.data.css, fontOrigins))
            onProblem('inject-font-face refused or already there');
          return true;
        case 'freeze-vh-units':
          pageHeight.freeze(message.referenceVhBase);
          return true;
        case 'measure-page-height':
          pageHeight.measure(message.settleMs);
          return true;
        case 'suppress-auto-popups':
          popups.suppress();
          return true;
        case 'toggle-canvas-wheel-zoom-bridge':
          wheel.enable();
          return true;
        default:
          return false;
      }
    },
    onEditModeOff: () => wheel.disable(),
    stop() {
      wheel.disable();
      pageHeight.stop();
      popups.stop();
    },
  };
}
