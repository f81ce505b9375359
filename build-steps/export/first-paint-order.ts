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
 * - the async chunk scripts go to the end of `<body>`, after the inline scripts of the React
 *   payload, which wait for the stylesheet in turn. The browser still fetches the chunks at once
 *   (its preload scanner reads ahead of the parser), but an async script runs only once the parser
 *   has reached its element, which is now after the stylesheet has arrived.
 *
 * Moving elements changes none of their text, so the CSP hashes the build takes stay those of the
 * page; React hydrates `<head>` and its script resources by looking them up, wherever they are.
 */

/** Every `<script>` element; the inline ones are those without `src` (the preview build annotates them). */
const SCRIPT = /<script\b([^>]*)>[\s\S]*?<\/script>/g;
const STYLESHEET = /<link rel="stylesheet"[^>]*>/;
/** Next's chunk scripts, as it writes them (`async=""`; the `noModule` polyfill is not one). */
const ASYNC_CHUNK = /<script src="\/_next\/static\/[^"]+" async=""><\/script>/g;

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

/** The page with Next's async chunk scripts at the end of `<body>`, in their order. */
export function chunkScriptsLast(html: string, file: string): string {
  const bodyEnd = html.lastIndexOf('</body>');
  if (bodyEnd < 0) throw new Error(`no </body> in ${update(file)}`);
  const chunks = html.slice(0, bodyEnd).match(ASYNC_CHUNK) ?? [];
  if (chunks.length === 0) return html;
  const rest = html.slice(0, bodyEnd).replace(ASYNC_CHUNK, '');
  return `${rest}${chunks.join('')}${html.slice(bodyEnd)}`;
}

/** Both moves, as the build applies them to every exported page. */
export function firstPaintOrder(html: string, file: string): string {
  return chunkScriptsLast(earlyScriptBeforeStylesheets(html, file), file);
}
