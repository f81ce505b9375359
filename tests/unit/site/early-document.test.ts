import { FRAME_GUARD_ATTRIBUTE, judgeFraming } from '@/lib/frame/frame-guard';
import { earlyDocumentScript, markDocumentEarly, type EarlyDocumentConfig } from '@/lib/site/early-document';
import { isExportedPagePath } from '@/lib/site/exported-paths';
import {
  clearMissingPageMarks,
  MISSING_PAGE_ATTRIBUTE,
  NOT_FOUND_TITLE,
  setNotFoundTitle,
  showAppNotFound,
  showStaticNotFound,
} from '@/lib/site/missing-page';

const CONFIG: EarlyDocumentConfig = {
  pageNames: ['ComingSoon'],
  notFoundTitle: NOT_FOUND_TITLE,
  editorOrigins: ['https://editor.example'],
  allowLoopback: false,
  missingAttribute: MISSING_PAGE_ATTRIBUTE,
  frameAttribute: FRAME_GUARD_ATTRIBUTE,
};
const PAGE_TITLE = 'Bald verfügbar – Unsere neue Website';
const root = document.documentElement;

/** Runs the script text in the page, as the browser runs the inline script. */
function runScript(): void {
  new Function(earlyDocumentScript(CONFIG))();
}

beforeEach(() => {
  document.head.innerHTML = `<meta charset="utf-8"><title>${PAGE_TITLE}</title>`;
  root.removeAttribute(MISSING_PAGE_ATTRIBUTE);
  root.removeAttribute(FRAME_GUARD_ATTRIBUTE);
  root.inert = false;
  for (const title of document.querySelectorAll(`title[${MISSING_PAGE_ATTRIBUTE}]`)) title.remove();
});

describe('the early script', () => {
  it('is self-contained text that carries the settings as JSON safe inside <script>', () => {
    const script = earlyDocumentScript({ ...CONFIG, notFoundTitle: '</script><script>alert(1)</script>&' });
    expect(script).not.toMatch(/<\/script|<script/i);
    expect(script).toContain('"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u0026"');
    expect(earlyDocumentScript(CONFIG)).toBe(earlyDocumentScript(CONFIG));
  });

  it('gives an address that names no page the 404 title, first in the document', () => {
    window.history.replaceState(null, '', '/does-not-exist?keep=1');
    runScript();
    expect(document.title).toBe(NOT_FOUND_TITLE);
    // Outside <head> and with itemprop, so React's metadata never claims it (missing-page.ts).
    const marked = document.querySelector(`title[${MISSING_PAGE_ATTRIBUTE}]`);
    expect(marked?.parentElement).toBe(root);
    expect(marked?.getAttribute('itemprop')).toBe('name');
    expect(window.location.search).toBe('?keep=1');
  });

  it('shows the static 404 screen the page carries, in place of <body>, while it runs in <head>', () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      '<template data-missing-page=""><main><h1>Page Not Found</h1></main></template>',
    );
    window.history.replaceState(null, '', '/Preise');
    const body = document.body;
    body.remove();
    try {
      runScript();
      expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(true);
      expect(document.querySelector(`html > div[${MISSING_PAGE_ATTRIBUTE}] h1`)?.textContent).toBe('Page Not Found');
    } finally {
      root.append(body);
      clearMissingPageMarks(document);
    }
  });

  it.each(['/', '/ComingSoon', '/ComingSoon/', '/index.html'])('leaves %s as it is', (path) => {
    window.history.replaceState(null, '', path);
    runScript();
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(false);
    expect(document.title).toBe(PAGE_TITLE);
    expect(root.hasAttribute(FRAME_GUARD_ATTRIBUTE)).toBe(false);
    expect(root.inert).toBe(false);
  });

  it('collapses leading slashes on the same origin, then judges the collapsed path', () => {
    // Absolute, as the browser's own address is: a path-relative '//ComingSoon' would name a host.
    window.history.replaceState(null, '', `${window.location.origin}//ComingSoon?x=1#top`);
    runScript();
    expect(window.location.pathname).toBe('/ComingSoon');
    expect(window.location.search + window.location.hash).toBe('?x=1#top');
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(false);
  });

  it.each(['hostile', 'unproven'] as const)('makes a %s frame inert', (verdict) => {
    window.history.replaceState(null, '', '/');
    markDocumentEarly(window, CONFIG, isExportedPagePath, () => verdict, setNotFoundTitle, showStaticNotFound);
    expect(root.getAttribute(FRAME_GUARD_ATTRIBUTE)).toBe(verdict);
    expect(root.inert).toBe(true);
  });

  it.each(['top', 'trusted'] as const)('leaves a %s page interactive', (verdict) => {
    markDocumentEarly(window, CONFIG, isExportedPagePath, () => verdict, setNotFoundTitle, showStaticNotFound);
    expect(root.hasAttribute(FRAME_GUARD_ATTRIBUTE)).toBe(false);
    expect(root.inert).toBe(false);
  });

  it('judges with the configured editor origins', () => {
    const judge = jest.fn(judgeFraming);
    markDocumentEarly(window, CONFIG, isExportedPagePath, judge, setNotFoundTitle, showStaticNotFound);
    expect(judge).toHaveBeenCalledWith(window, CONFIG.editorOrigins, false);
  });
});

describe('the missing-page marks', () => {
  it('set the title once and clear it when the address names a page again', () => {
    setNotFoundTitle(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
    setNotFoundTitle(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
    expect(document.querySelectorAll(`title[${MISSING_PAGE_ATTRIBUTE}]`)).toHaveLength(1);
    expect(document.title).toBe(NOT_FOUND_TITLE);
    clearMissingPageMarks(document);
    expect(document.title).toBe(PAGE_TITLE);
  });

  it("show the static screen only while <body> is not there yet (the early script), then the app's", () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      '<template data-missing-page=""><main><h1>Page Not Found</h1></main></template>',
    );
    // After <body> exists (any later call) nothing is added.
    showStaticNotFound(document, MISSING_PAGE_ATTRIBUTE);
    expect(document.querySelector(`div[${MISSING_PAGE_ATTRIBUTE}]`)).toBeNull();
    const body = document.body;
    body.remove();
    try {
      showStaticNotFound(document, MISSING_PAGE_ATTRIBUTE);
    } finally {
      root.append(body);
    }
    const holder = document.querySelector(`html > div[${MISSING_PAGE_ATTRIBUTE}]`);
    expect(holder?.querySelector('h1')?.textContent).toBe('Page Not Found');
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(true);

    const app = document.createElement('section');
    showAppNotFound(document, app);
    expect([...(holder?.childNodes ?? [])]).toEqual([app]);
    expect(document.title).toBe(NOT_FOUND_TITLE);

    clearMissingPageMarks(document);
    expect(document.querySelector(`div[${MISSING_PAGE_ATTRIBUTE}], title[${MISSING_PAGE_ATTRIBUTE}]`)).toBeNull();
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(false);
    expect(document.title).toBe(PAGE_TITLE);
  });

  it("put the app's screen back in place of <body> after a back navigation to a missing address", () => {
    const app = document.createElement('section');
    showAppNotFound(document, app);
    expect(app.parentElement?.parentElement).toBe(root);
    expect(app.parentElement?.nextElementSibling).toBe(document.body);
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(true);
    clearMissingPageMarks(document);
  });

  it('show nothing where the page carries no static screen (the 404 page itself)', () => {
    const body = document.body;
    body.remove();
    try {
      showStaticNotFound(document, MISSING_PAGE_ATTRIBUTE);
      expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(false);
    } finally {
      root.append(body);
    }
  });
});
