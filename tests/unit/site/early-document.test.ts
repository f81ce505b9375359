import { FRAME_GUARD_ATTRIBUTE, judgeFraming } from '@/lib/frame/frame-guard';
import { earlyDocumentScript, markDocumentEarly, type EarlyDocumentConfig } from '@/lib/site/early-document';
import { isExportedPagePath } from '@/lib/site/exported-paths';
import {
  clearMissingPageMarks,
  markMissingPage,
  MISSING_PAGE_ATTRIBUTE,
  NOT_FOUND_TITLE,
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

  it('marks an address that names no page: the 404 title wins and <html> is marked', () => {
    window.history.replaceState(null, '', '/does-not-exist?keep=1');
    runScript();
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(true);
    expect(document.title).toBe(NOT_FOUND_TITLE);
    // Outside <head> and with itemprop, so React's metadata never claims it (missing-page.ts).
    const marked = document.querySelector(`title[${MISSING_PAGE_ATTRIBUTE}]`);
    expect(marked?.parentElement).toBe(root);
    expect(marked?.getAttribute('itemprop')).toBe('name');
    expect(window.location.search).toBe('?keep=1');
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
    markDocumentEarly(window, CONFIG, isExportedPagePath, () => verdict, markMissingPage);
    expect(root.getAttribute(FRAME_GUARD_ATTRIBUTE)).toBe(verdict);
    expect(root.inert).toBe(true);
  });

  it.each(['top', 'trusted'] as const)('leaves a %s page interactive', (verdict) => {
    markDocumentEarly(window, CONFIG, isExportedPagePath, () => verdict, markMissingPage);
    expect(root.hasAttribute(FRAME_GUARD_ATTRIBUTE)).toBe(false);
    expect(root.inert).toBe(false);
  });

  it('judges with the configured editor origins', () => {
    const judge = jest.fn(judgeFraming);
    markDocumentEarly(window, CONFIG, isExportedPagePath, judge, markMissingPage);
    expect(judge).toHaveBeenCalledWith(window, CONFIG.editorOrigins, false);
  });
});

describe('the missing-page marks', () => {
  it('are set once and cleared when the address names a page again', () => {
    markMissingPage(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
    markMissingPage(document, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
    expect(document.querySelectorAll(`title[${MISSING_PAGE_ATTRIBUTE}]`)).toHaveLength(1);
    clearMissingPageMarks(document);
    expect(root.hasAttribute(MISSING_PAGE_ATTRIBUTE)).toBe(false);
    expect(document.title).toBe(PAGE_TITLE);
  });
});
