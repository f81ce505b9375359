/**
 * The editor's page-wide features, which act on the page rather than on a selected element:
 * theme and font previews, canvas sizing (viewport-height freeze, page height), pop-up
 * suppression and the canvas wheel bridge. Routed here by the agent.
 */
import type { IncomingMessageHandlers, OutgoingMessage } from '../messages';
import { createPageHeightController } from './page-height';
import { createPopupSuppressor } from './popup-suppressor';
import { applyThemeVariables, injectFontFace, injectFontImport } from './theme';
import { createWheelBridge } from './wheel-bridge';

/** The messages that act on the whole page. */
export type PageMessageType =
  | 'update-theme-variables'
  | 'inject-font-import'
  | 'inject-font-face'
  | 'freeze-vh-units'
  | 'measure-page-height'
  | 'suppress-auto-popups'
  | 'toggle-canvas-wheel-zoom-bridge';

export interface PageFeatures {
  /** A handler for each page-wide message. */
  handlers: IncomingMessageHandlers<PageMessageType>;
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
    handlers: {
      'update-theme-variables': ({ data }) => {
        if (!applyThemeVariables(doc, data.variables, data.mode)) onProblem('update-theme-variables: no .dark element');
      },
      'inject-font-import': ({ data }) => {
        if (!injectFontImport(doc, data.fontUrl, fontOrigins))
          onProblem('inject-font-import refused: font origin not allowed');
      },
      'inject-font-face': ({ data }) => {
        if (!injectFontFace(doc, data.id, data.css, fontOrigins))
          onProblem('inject-font-face refused or already there');
      },
      'freeze-vh-units': (message) => pageHeight.freeze(message.referenceVhBase),
      'measure-page-height': (message) => pageHeight.measure(message.settleMs),
      'suppress-auto-popups': () => popups.suppress(),
      'toggle-canvas-wheel-zoom-bridge': () => wheel.enable(),
    },
    onEditModeOff: () => wheel.disable(),
    stop() {
      wheel.disable();
      pageHeight.stop();
      popups.stop();
    },
  };
}
