/**
 * The marks of an address that names no page: `data-missing-page` on `<html>` (the stylesheet then
 * shows the 404 screen a page carries, app/globals.css) and the 404 title. lib/site/early-document.ts
 * sets them before the first paint, NotFoundRoute after any client-side switch to the 404 screen, and
 * MissingPageGuard removes them once the address names a page again (Go Home). Kept apart from
 * early-document.ts so the client bundle carries only these few lines.
 */

/** On `<html>`, and on the 404 `<title>`, while the address names no page. */
export const MISSING_PAGE_ATTRIBUTE = 'data-missing-page';

/** The title of the 404 screen (app/not-found.tsx). */
export const NOT_FOUND_TITLE = 'Seite nicht gefunden (404)';

/**
 * Marks the document. The title is an element of its own, first in the document, which wins
 * `document.title`. It carries `itemprop` and sits before `<head>` because React claims the
 * document's first `<title>` for the page's metadata unless it has `itemprop`, and then puts its own
 * before the first `<title>` in `<head>`: this one stays ours, and stays first. Self-contained: its
 * source is also inlined into the early script.
 */
export function markMissingPage(doc: Document, attribute: string, title: string): void {
  doc.documentElement.setAttribute(attribute, '');
  if (doc.querySelector(`title[${attribute}]`)) return;
  const element = doc.createElement('title');
  element.setAttribute(attribute, '');
  element.setAttribute('itemprop', 'name');
  element.textContent = title;
  doc.documentElement.insertBefore(element, doc.head);
}

/** Removes the marks once the address names a page again. */
export function clearMissingPageMarks(doc: Document): void {
  doc.documentElement.removeAttribute(MISSING_PAGE_ATTRIBUTE);
  for (const title of doc.querySelectorAll(`title[${MISSING_PAGE_ATTRIBUTE}]`)) title.remove();
}
