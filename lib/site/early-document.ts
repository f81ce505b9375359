/**
 * The early inline script of every page (rendered by components/shell/EarlyHead.tsx, hashed into the
 * CSP by the build like any inline script). It runs in `<head>`, before Next.js reads the address bar
 * and before the first paint, and decides three things no host header can decide for us:
 *
 * 1. A path starting with `//` (`//ComingSoon`, or `/\host/x`, which browsers turn into `//host/x`)
 *    is a valid same-origin URL, but Next's router syncs its URL with a path-relative
 *    `history.replaceState(state, '', '//host/x')`, which resolves as another host and throws a
 *    SecurityError that crashed the app. Collapsing the leading slashes with an absolute URL keeps
 *    the visitor on the same origin and document.
 * 2. A path that is no page (lib/site/exported-paths.ts) gets the 404 title and, where the host
 *    served a page's HTML anyway (SPA-only hosts answer every path with index.html), the static 404
 *    screen that page carries instead of its copy, from the first paint on (lib/site/missing-page.ts);
 *    MissingPageScreen takes over after hydration.
 * 3. A document framed by a site that is not the allowlisted editor is made inert
 *    (lib/frame/frame-guard.ts), since only a header could have refused the framing.
 *
 * The script is constant: the same text on every page of a build (page names, title and editor
 * origins are build settings), so one hash in `script-src` allows it and nothing else.
 */
import { judgeFraming, type FramingVerdict, type FramingView } from '@/lib/frame/frame-guard';

import { isExportedPagePath } from './exported-paths';
import { setNotFoundTitle, showStaticNotFound } from './missing-page';

export interface EarlyDocumentConfig {
  pageNames: readonly string[];
  notFoundTitle: string;
  editorOrigins: readonly string[];
  allowLoopback: boolean;
  missingAttribute: string;
  frameAttribute: string;
}

type PagePathCheck = (pathname: string, pageNames: readonly string[]) => boolean;
type FramingJudge = (win: FramingView, editorOrigins: readonly string[], allowLoopback: boolean) => FramingVerdict;
type TitleSetter = (doc: Document, attribute: string, title: string) => void;
type StaticScreen = (doc: Document, attribute: string) => void;

/**
 * The script's body. Self-contained (its helpers arrive as arguments), because its source text is
 * what the page runs.
 */
export function markDocumentEarly(
  win: Window,
  config: EarlyDocumentConfig,
  isPagePath: PagePathCheck,
  judge: FramingJudge,
  setTitle: TitleSetter,
  showStatic: StaticScreen,
): void {
  const doc = win.document;
  const root = doc.documentElement;
  const location = win.location;
  if (location.pathname.slice(0, 2) === '//') {
    try {
      const collapsed = location.pathname.replace(/^\/+/, '/');
      win.history.replaceState(win.history.state, '', location.origin + collapsed + location.search + location.hash);
    } catch {
      // Left as it is: the router copes with it, only less gracefully.
    }
  }
  if (!isPagePath(location.pathname, config.pageNames)) {
    setTitle(doc, config.missingAttribute, config.notFoundTitle);
    showStatic(doc, config.missingAttribute);
  }
  const verdict = judge(win, config.editorOrigins, config.allowLoopback);
  if (verdict === 'hostile' || verdict === 'unproven') {
    root.setAttribute(config.frameAttribute, verdict);
    root.inert = true;
  }
}

/** JSON that stays JSON inside a `<script>` element. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** The text of the inline script: the functions' own sources, called with the build's settings. */
export function earlyDocumentScript(config: EarlyDocumentConfig): string {
  const helpers = [isExportedPagePath, judgeFraming, setNotFoundTitle, showStaticNotFound].map((helper) =>
    helper.toString(),
  );
  return `(${markDocumentEarly.toString()})(window,${scriptSafeJson(config)},${helpers.join(',')})`;
}
