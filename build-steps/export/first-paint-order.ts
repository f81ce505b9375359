/**
 * Orders an exported page so that its first paint comes before the framework's scripts run, as the
 * empty Next.js export's does (docs/PERFORMANCE.md, "Lighthouse, side by side").
 *
 * As Next.js writes a page, `<head>` holds the layout's stylesheet, then Next's async chunk scripts
 * (React DOM among them, ~64 KB), then the early inline script (components/shell/EarlyHead.tsx). A
 * classic inline script after a stylesheet that is still loading waits for it (a "script-blocking
 * style sheet"), and the parser with it: `<body>` was parsed only after the stylesheet arrived, and
 * the async chunks, fetched in parallel, ran in the meantime, all before the first paint.
 * Lighthouse's simulated LCP counts every script that ran before the observed paint, so our LCP
 * paid for downloading and running the framework on a throttled phone; the empty export, with no
 * stylesheet, paints first.
 *
 * So, after the build:
 * - the early script goes right before the first stylesheet: it runs at once, and the page's copy
 *   is parsed while the stylesheet is on its way (the first paint still waits for the stylesheet);
 * - Next's async chunk scripts leave the HTML, and an inline script at the end of `<body>` adds them,
 *   in their order, once the browser has painted (framework-loader.ts): a chunk that arrived early
 *   (from the cache, or on a fast network) ran before the paint even at the end of `<body>`, and
 *   the first paint waited for the framework's start;
 * - the low-priority preload Next writes for one chunk goes too: on a slow network it shared the
 *   bandwidth with the stylesheet, and the chunk is needed only after the first paint.
 *
 * The loader is an inline script like the payload's, so the CSP hashes are taken after this step
 * (generate-headers.ts); React hydrates `<head>` and its script resources by looking them up,
 * wherever they are.
 */

import { frameworkLoader } from './framework-loader';

/** Every `<script>` element; the inline ones are those without `src` (the preview build annotates them). */
const SCRIPT = /<script\b([^>]*)>[\s\S]*?<\/script>/g;
const STYLESHEET = /<link rel="stylesheet"[^>]*>/;
/** Next's chunk scripts, as it writes them (`async=""`; the `noModule` polyfill is not one). */
const ASYNC_CHUNK = /<script src="(\/_next\/static\/[^"]+)" async=""><\/script>/g;
/** The low-priority preload Next writes into `<head>` for a chunk. */
const CHUNK_PRELOAD = /<link rel="preload" as="script" fetchPriority="low" href="\/_next\/static\/[^"]+"\/>/g;

function update(file: string): string {
  return `${file}: update build-steps/export/first-paint-order.ts`;
}

/** The page with its early script before its first stylesheet; throws when the markup is unexpected. */
export function earlyScriptBeforeStylesheets(html: string, file: string): string {
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) throw new Error(`no </head> in ${update(file)}`);
  const head = html.slice(0, headEnd);
  const scripts = [...head.matchAll(SCRIPT)].filter((match) => !/\ssrc=/.test(match[1] ?? ''));
  const [script] = scripts;
  if (scripts.length !== 1 || !script || script.index === undefined) {
    throw new Error(`expected one inline <script> in <head>, found ${scripts.length}, in ${update(file)}`);
  }
  const stylesheet = STYLESHEET.exec(head);
  if (!stylesheet || stylesheet.index > script.index) return html;
  const without = head.slice(0, script.index) + head.slice(script.index + script[0].length);
  return `${without.slice(0, stylesheet.index)}${script[0]}${without.slice(stylesheet.index)}${html.slice(headEnd)}`;
}

/**
 * The page with Next's async chunk scripts and chunk preloads taken out, and the loader that adds
 * the scripts after the first paint at the end of `<body>`.
 */
export function frameworkAfterFirstPaint(html: string, file: string): string {
  const bodyEnd = html.lastIndexOf('</body>');
  if (bodyEnd < 0) throw new Error(`no </body> in ${update(file)}`);
  const before = html.slice(0, bodyEnd);
  const sources = [...before.matchAll(ASYNC_CHUNK)].map((match) => match[1] ?? '');
  if (sources.length === 0) return html;
  const rest = before.replace(ASYNC_CHUNK, '').replace(CHUNK_PRELOAD, '');
  return `${rest}<script>${frameworkLoader(sources)}</script>${html.slice(bodyEnd)}`;
}

/** Both changes, as the build applies them to every exported page. */
export function firstPaintOrder(html: string, file: string): string {
  return frameworkAfterFirstPaint(earlyScriptBeforeStylesheets(html, file), file);
}
