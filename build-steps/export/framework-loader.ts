/**
 * The inline script that starts the framework once the page has painted (first-paint-order.ts).
 *
 * Next.js lists its chunk scripts as `<script async>`, and an async script runs as soon as it has
 * arrived and the parser has reached it: before the first paint whenever the chunks arrive first (a
 * repeat visit, whose chunks come from the HTTP cache; a fast network; a page whose paint waits a
 * little longer). The framework's start and hydration is a task of 300–900 ms on a phone, and the
 * first paint then waits for it. Lighthouse's simulated LCP charges it too: every script that ran
 * before the paint it observed, with its download (docs/PERFORMANCE.md). This script adds the same
 * elements (`async`, in their order) once the browser reports the first paint; at once where none
 * will be reported soon (a hidden or prerendering tab, a browser without paint timing, or a paint
 * reported already), and after {@link PAINT_WAIT_MS} at the latest. It adds one script per task:
 * each element starts a request, and the eight in one task made a task of 7–26 ms right after the
 * first paint in Lighthouse's traces (stalls of 4–11 ms between two requests; ×4 on its phone, and
 * Lantern counts it as blocking); one per task, the loader's tasks were 0.2–7.6 ms in five traces
 * after (a stall now falls between two of them or stays inside one).
 *
 * It is written as text, not compiled from a function: the build runs under tsx, which wraps
 * functions in helpers of its own that a page does not have.
 */
import { scriptElements } from '../../deploy/headers/inline-scripts';

/** The longest wait for a paint that the browser does not report. */
export const PAINT_WAIT_MS = 1000;

/** A chunk address as Next.js writes it: nothing that could end the script or need escaping. */
const CHUNK = /^\/_next\/static\/[\w./-]+\.js$/;

/** How the loader begins and where its list of addresses starts: what recognises it in a page. */
const LOADER_START = '(function(d,u){var started=0;';
const SOURCES_START = ')(document,';

function checkedSources(sources: readonly string[]): readonly string[] {
  const unexpected = sources.find((source) => !CHUNK.test(source) || source.includes('..'));
  if (unexpected !== undefined) throw new Error(`unexpected chunk address ${JSON.stringify(unexpected)}`);
  return sources;
}

/** The loader for `sources` (chunk addresses, in the order Next.js wrote their scripts). */
export function frameworkLoader(sources: readonly string[]): string {
  checkedSources(sources);
  return (
    LOADER_START +
    'function start(){if(started)return;started=1;add(0)}' +
    'function add(i){var s=d.createElement("script");s.src=u[i];s.async=true;d.body.appendChild(s);' +
    'if(i+1<u.length)setTimeout(function(){add(i+1)},0)}' +
    'var O=self.PerformanceObserver,types=O&&O.supportedEntryTypes;' +
    'if(d.visibilityState!=="visible"||!types||types.indexOf("paint")<0||performance.getEntriesByType("paint").length)return start();' +
    'new O(start).observe({type:"paint"});d.addEventListener("visibilitychange",start);' +
    `setTimeout(start,${PAINT_WAIT_MS})}${SOURCES_START}${JSON.stringify(sources)})`
  );
}

/** The chunk addresses of a loader's text, or null when the text is not the loader; throws on a broken list. */
function loaderSources(text: string): readonly string[] | null {
  if (!text.startsWith(LOADER_START)) return null;
  const list = text.lastIndexOf(SOURCES_START);
  const parsed: unknown =
    list < 0 || !text.endsWith(')') ? null : JSON.parse(text.slice(list + SOURCES_START.length, -1));
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
    throw new Error('the framework loader in this page has no list of chunk addresses');
  }
  return checkedSources(parsed);
}

/**
 * Every script a page loads up front, in order: its `<script src>` elements (not the `noModule`
 * polyfill, which current browsers skip) and the chunks its loader adds after the first paint.
 * What `npm run bench` weighs as the first load, and the tests of what it leaves out.
 */
export function firstLoadScripts(html: string): string[] {
  const sources: string[] = [];
  for (const { attributes, body } of scriptElements(html)) {
    if (/\bnoModule\b/i.test(attributes)) continue;
    const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
    if (src) sources.push(src);
    else sources.push(...(loaderSources(body) ?? []));
  }
  return sources;
}
