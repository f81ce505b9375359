/**
 * The framing guard for hosts that send no headers (Base44 hosting, GitHub Pages, S3).
 *
 * `frame-ancestors` is what stops other sites from framing the site, and only a header can carry it:
 * a `<meta>` policy cannot. On a header-less host any page may frame the site, hide it under its own
 * content and make the visitor click through to it (clickjacking). So before the first paint the
 * page judges who frames it, by what the engine itself reports (a framer cannot forge these):
 * - not framed: nothing to do;
 * - Chromium and WebKit list every ancestor's origin in `location.ancestorOrigins`: all of them on the
 *   editor allowlist (or this site itself) -> trusted, any other -> hostile, for good;
 * - Firefox lists none. It trusts a frame one level deep whose document the allowlisted editor
 *   loaded (`document.referrer`; only a document of that origin can navigate a frame of the
 *   top page that way), or whose parent is this site itself. Anything else is unproven until the
 *   editor bridge receives a valid message from the allowlisted parent (bridge.ts releases it then).
 *   The referrer proves who loaded the frame, not who frames it: if the editor's origin has an open
 *   client-side redirect (a page that navigates itself to an address from its URL), a hostile top
 *   page can frame that page and have it navigate the frame here, and the frame is trusted. Only
 *   these Firefox versions are exposed (ancestorOrigins names the hostile top page everywhere else);
 *   trusting nothing before the bridge's first message would close it, at the price of an inert
 *   editor frame until the editor speaks first, which it may never do. Editor origins without open
 *   redirects are the remedy; the residual risk is stated in docs/DEPLOY.md (header-less hosts).
 * Hostile and unproven documents are made inert (no click, no focus, no keyboard): the copy stays
 * readable, but no link or button can act for the visitor. The editor bridge stays silent there too.
 *
 * `judgeFraming` is self-contained: EarlyHead inlines its source into every page (see
 * lib/site/early-document.ts, which also marks the document).
 */

export type FramingVerdict = 'top' | 'trusted' | 'unproven' | 'hostile';

/** The attribute on `<html>` that marks a guarded document; its value is the verdict. */
export const FRAME_GUARD_ATTRIBUTE = 'data-frame-guard';

/** What the judgement reads of a window (a real one in the browser, a stand-in in unit tests). */
export interface FramingView {
  self: unknown;
  top: unknown;
  parent: { location: { origin: string } } | unknown;
  location: { origin: string; ancestorOrigins?: ArrayLike<string> };
  document: { referrer: string };
}

export function judgeFraming(
  win: FramingView,
  editorOrigins: readonly string[],
  allowLoopback: boolean,
): FramingVerdict {
  if (win.self === win.top) return 'top';
  const own = win.location.origin;
  const allowed = (origin: string) =>
    origin === own ||
    editorOrigins.indexOf(origin) >= 0 ||
    (allowLoopback && /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin));
  const ancestors = win.location.ancestorOrigins;
  if (ancestors) {
    // "null" (a sandboxed or no-referrer ancestor) is never allowed.
    for (let index = 0; index < ancestors.length; index += 1) {
      if (!allowed(String(ancestors[index]))) return 'hostile';
    }
    return 'trusted';
  }
  // Firefox. A grandparent would stay invisible, so only a frame of the top page can be proven.
  if (win.parent !== win.top) return 'unproven';
  let loader = '';
  try {
    loader = new URL(win.document.referrer).origin;
  } catch {
    loader = '';
  }
  if (loader !== '' && loader !== own && allowed(loader)) return 'trusted';
  try {
    // Readable only when the parent is same-origin; a cross-origin parent throws.
    if ((win.parent as { location: { origin: string } }).location.origin === own) return 'trusted';
  } catch {
    // Cross-origin parent: not proven.
  }
  return 'unproven';
}

/**
 * Lifts an unproven guard once the allowlisted parent proved itself with a valid message (the editor
 * bridge calls this). A hostile verdict, or a parent that is itself framed, keeps the guard.
 */
export function releaseFrameGuard(win: Window): boolean {
  const root = win.document.documentElement;
  if (root.getAttribute(FRAME_GUARD_ATTRIBUTE) !== 'unproven' || win.parent !== win.top) return false;
  root.removeAttribute(FRAME_GUARD_ATTRIBUTE);
  root.inert = false;
  return true;
}
