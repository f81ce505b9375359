import {
  earlyScriptBeforeStylesheets,
  firstPaintOrder,
  frameworkAfterFirstPaint,
} from '@/build-steps/export/first-paint-order';
import { frameworkLoader } from '@/build-steps/export/framework-loader';
import { inlineScriptHashes } from '@/deploy/headers/inline-scripts';

const EARLY = '<script>(function(){document.documentElement.dataset.x="1"})()</script>';
const STYLESHEET = '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>';
const page = (head: string) =>
  `<!DOCTYPE html><html><head><meta charSet="utf-8"/>${head}</head>` +
  '<body><main>x</main><script>self.__next_f.push([1,"a"])</script></body></html>';
const NEXT_HEAD = `${STYLESHEET}<script src="/_next/a.js" async=""></script><title>T</title>${EARLY}`;

describe('earlyScriptBeforeStylesheets', () => {
  const moved = earlyScriptBeforeStylesheets(page(NEXT_HEAD), 'index.html');

  it('puts the early script right before the first stylesheet and leaves everything else in place', () => {
    expect(moved).toBe(page(`${EARLY}${STYLESHEET}<script src="/_next/a.js" async=""></script><title>T</title>`));
  });

  it('keeps the script text, so its CSP hash and the body scripts stay as they were', () => {
    expect(inlineScriptHashes(moved)).toEqual(inlineScriptHashes(page(NEXT_HEAD)));
  });

  it('changes nothing on a second run or where the script already comes first', () => {
    expect(earlyScriptBeforeStylesheets(moved, 'index.html')).toBe(moved);
    const noStylesheet = page(`<title>T</title>${EARLY}`);
    expect(earlyScriptBeforeStylesheets(noStylesheet, 'a.html')).toBe(noStylesheet);
  });

  it('finds the script with the attributes of the editor preview build', () => {
    const annotated = EARLY.replace('<script>', '<script data-source-location="components/shell/EarlyHead.tsx:31:7">');
    const html = page(`${STYLESHEET}<script src="/_next/a.js" async=""></script>${annotated}`);
    expect(earlyScriptBeforeStylesheets(html, 'index.html')).toBe(
      page(`${annotated}${STYLESHEET}<script src="/_next/a.js" async=""></script>`),
    );
  });

  it('refuses markup it does not expect', () => {
    expect(() => earlyScriptBeforeStylesheets(page(STYLESHEET), 'a.html')).toThrow(/expected one inline <script>/);
    expect(() => earlyScriptBeforeStylesheets(page(`${EARLY}${STYLESHEET}${EARLY}`), 'b.html')).toThrow(/found 2/);
    expect(() => earlyScriptBeforeStylesheets('<html><body></body></html>', 'c.html')).toThrow(/no <\/head>/);
  });
});

describe('frameworkAfterFirstPaint', () => {
  const CHUNK_A = '<script src="/_next/static/chunks/a.js" async=""></script>';
  const CHUNK_B = '<script src="/_next/static/chunks/b.js" async=""></script>';
  const PRELOAD = '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/b.js"/>';
  const PAYLOAD = '<script>self.__next_f.push([1,"a"])</script>';
  const NO_MODULE = '<script src="/_next/static/chunks/p.js" noModule=""></script>';
  const LOADER = `<script>${frameworkLoader(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js'])}</script>`;
  const built =
    `<html><head>${STYLESHEET}${CHUNK_A}${PRELOAD}${EARLY}${NO_MODULE}</head>` +
    `<body><main>x</main><script id="_R_">x()</script>${CHUNK_B}${PAYLOAD}</body></html>`;

  it('replaces the async chunks and their preload by the loader at the end, in their order, and leaves the rest', () => {
    expect(frameworkAfterFirstPaint(built, 'a.html')).toBe(
      `<html><head>${STYLESHEET}${EARLY}${NO_MODULE}</head>` +
        `<body><main>x</main><script id="_R_">x()</script>${PAYLOAD}${LOADER}</body></html>`,
    );
  });

  it('with the early script moved too, keeps every other script text and changes nothing on a second run', () => {
    const once = firstPaintOrder(built, 'a.html');
    expect(once.indexOf(EARLY)).toBeLessThan(once.indexOf(STYLESHEET));
    expect(inlineScriptHashes(once)).toEqual(inlineScriptHashes(`${built}${LOADER}`));
    expect(firstPaintOrder(once, 'a.html')).toBe(once);
  });

  it('refuses a page without </body>', () => {
    expect(() => frameworkAfterFirstPaint('<html><head></head>', 'd.html')).toThrow(/no <\/body>/);
  });
});
