/**
 * Tells the editor the site's address on load and after every route change (`app_changed_url`).
 *
 * Why history hooks and not Next's `usePathname` in the loader: the bridge is loaded lazily, after
 * the first render, and must stay free of React so it costs nothing in the main bundle; a pathname
 * prop would also miss query and hash changes, which the editor shows in its address bar. Next's
 * App Router performs every client navigation through `history.pushState`/`replaceState` (looked up
 * on `window.history` at call time, so our wrapper sees them) and back/forward through `popstate`;
 * anything else (a hash link, another router) is covered by the same three hooks.
 */

/** Query parameters that can carry a credential; never sent to the editor. */
const SECRET_PARAMS = ['access_token', 'token'];

/** The address as the editor may see it: credentials removed, everything else kept. */
export function redactUrl(href: string): string {
  try {
    const url = new URL(href);
    let changed = false;
    for (const name of SECRET_PARAMS) {
      if (url.searchParams.has(name)) {
        url.searchParams.delete(name);
        changed = true;
      }
    }
    return changed ? url.toString() : href;
  } catch {
    return href;
  }
}

type HistoryMethod = History['pushState'];

/**
 * Calls `onChange(url)` now and whenever the address changes; returns a function that stops it.
 * Repeated reports of the same address (Next replaces the history entry on load and after each
 * navigation) are collapsed into one.
 */
export function watchUrlChanges(win: Window, onChange: (url: string) => void): () => void {
  let lastReported: string | null = null;
  let active = true;

  const report = () => {
    if (!active) return;
    const url = redactUrl(win.location.href);
    if (url === lastReported) return;
    lastReported = url;
    onChange(url);
  };
  // History methods change the address synchronously, but the router may call them again in the same
  // task (push then replace); checking in a microtask reports the settled address once.
  const reportSoon = () => queueMicrotask(report);

  const { history } = win;
  const wrap = (original: HistoryMethod): HistoryMethod =>
    function patchedHistoryMethod(this: History, ...args: Parameters<HistoryMethod>) {
      const result = original.apply(this, args);
      if (active) reportSoon();
      return result;
    };
  const originalPush = history.pushState;
  const originalReplace = history.replaceState;
  const patchedPush = wrap(originalPush);
  const patchedReplace = wrap(originalReplace);
  history.pushState = patchedPush;
  history.replaceState = patchedReplace;
  win.addEventListener('popstate', reportSoon);
  win.addEventListener('hashchange', reportSoon);

  report();

  return () => {
    active = false;
    win.removeEventListener('popstate', reportSoon);
    win.removeEventListener('hashchange', reportSoon);
    // Restore only what is still ours: if something wrapped our wrapper since, putting the original
    // back would silently remove its wrapper too. Ours then stays as a pass-through (active = false).
    if (history.pushState === patchedPush) history.pushState = originalPush;
    if (history.replaceState === patchedReplace) history.replaceState = originalReplace;
  };
}
