/** True in a browser (or jsdom); false during SSR, prerender and in Node. */
export function hasWindow(): boolean {
  return typeof window !== 'undefined' && typeof window.location !== 'undefined';
}
