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
 * reported already), and after {@link PAINT_WAIT_MS} at the latest.
 *
 * It is written as text, not compiled from a function: the build runs under tsx, which wraps
 * functions in helpers of its own that a page does not have.
 */

/** The longest wait for a paint that the browser does not report. */
export const PAINT_WAIT_MS = 1000;

/** A chunk address as Next.js writes it: nothing that could end the script or need escaping. */
const CHUNK = /^\/_next\/static\/[\w./-]+\.js$/;

/** The loader for `sources` (chunk addresses, in the order Next.js wrote their scripts). */
export function frameworkLoader(sources: readonly string[]): string {
  const unexpected = sources.find((source) => !CHUNK.test(source) || source.includes('..'));
  if (unexpected !== undefined) throw new Error(`unexpected chunk address ${JSON.stringify(unexpected)}`);
  return (
    '(function(d,u){var started=0;' +
    'function start(){if(started)return;started=1;' +
    'for(var i=0;i<u.length;i++){var s=d.createElement("script");s.src=u[i];s.async=true;d.body.appendChild(s)}}' +
    'var O=self.PerformanceObserver,types=O&&O.supportedEntryTypes;' +
    'if(d.visibilityState!=="visible"||!types||types.indexOf("paint")<0||performance.getEntriesByType("paint").length)return start();' +
    'new O(start).observe({type:"paint"});d.addEventListener("visibilitychange",start);' +
    `setTimeout(start,${PAINT_WAIT_MS})})(document,${JSON.stringify(sources)})`
  );
}
