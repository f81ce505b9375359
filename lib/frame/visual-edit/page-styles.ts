/**
 * Style rules the agent adds to the page while it works (edit-mode cursor, frozen animations, no
 * focus ring while editing text inline). They are constructed style sheets (CSSOM), which the
 * strict CSP allows and which leave the page's own markup untouched; engines without them (jsdom)
 * fall back to the root element's inline style for the cursor and skip the rest.
 */

/** The edit-mode look: a crosshair over the page, animations and transitions frozen in place. */
export const EDIT_MODE_CSS = [
  'body { cursor: crosshair !important; }',
  '*, *::before, *::after { animation-play-state: paused !important; transition: none !important; }',
].join('\n');

/** While an element is edited inline, the editor's own outline marks it, not the focus ring. */
export const INLINE_EDIT_CSS = '[data-selected="true"][contenteditable="true"]:focus { outline: none !important; }';

/** Adds `css` to `doc` and returns how to take it away again. */
export function addPageStyle(win: Window, css: string): () => void {
  const doc = win.document;
  const StyleSheet = (win as Window & typeof globalThis).CSSStyleSheet;
  if (typeof StyleSheet === 'function' && 'adoptedStyleSheets' in doc) {
    try {
      const sheet = new StyleSheet();
      sheet.replaceSync(css);
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
      return () => {
        doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((candidate) => candidate !== sheet);
      };
    } catch {
      // fall through to the fallback below
    }
  }
  if (css !== EDIT_MODE_CSS) return () => undefined;
  const previous = doc.documentElement.style.cursor;
  doc.documentElement.style.cursor = 'crosshair';
  return () => {
    doc.documentElement.style.cursor = previous;
  };
}

/** Fast-forwards (or, when endless, pauses) every running animation; returns how to resume them. */
export function freezeAnimations(doc: Document): () => void {
  const animations = typeof doc.getAnimations === 'function' ? doc.getAnimations() : [];
  const paused: Animation[] = [];
  for (const animation of animations) {
    try {
      animation.finish();
    } catch {
      // finish() throws on infinite animations: pause those instead.
      animation.pause();
      paused.push(animation);
    }
  }
  return () => {
    for (const animation of paused) {
      try {
        animation.play();
      } catch {
        // its target may be gone
      }
    }
  };
}
