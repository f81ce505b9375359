/**
 * What shows that the address names no page, where the host served a page's HTML anyway (SPA-only
 * hosts answer every path with index.html):
 * - the 404 title, a `<title data-missing-page>` of its own, first in the document;
 * - before hydration, the static 404 screen: the build puts the prerendered screen of 404.html into
 *   every other page as `<template data-missing-page>` (inert: no text of the page, nothing a crawler
 *   reads as content); the early script (lib/site/early-document.ts) copies it into a
 *   `<div data-missing-page>` next to `<body>` and marks `<html data-missing-page>`, which hides
 *   `<body>` (app/globals.css); after hydration the app's own 404 screen takes its place (MissingPageScreen).
 * React never sees any of it: hydration skips elements it did not render next to `<head>` and
 * `<body>`, and React claims a document's first `<title>` only without `itemprop`.
 * MissingPageScreen removes all of it once the address names a page again (Go Home).
 */

/** The attribute of every element above (and of `<html>` while the static screen shows). */
export const MISSING_PAGE_ATTRIBUTE = 'data-missing-page';

/** The title of the 404 screen (app/not-found.tsx, and before the first paint the early script's). */
export const NOT_FOUND_TITLE = 'Seite nicht gefunden (404)';

/** Puts the 404 title first in the document. Self-contained: the early script inlines its source. */
export function setNotFoundTitle(doc: Document, attribute: string, title: string): void {
  if (doc.querySelector(`title[${attribute}]`)) return;
  const element = doc.createElement('title');
  element.setAttribute(attribute, '');
  element.setAttribute('itemprop', 'name');
  element.textContent = title;
  doc.documentElement.insertBefore(element, doc.head);
}

/**
 * Shows the static 404 screen the page carries, before `<body>` is parsed (the early script runs in
 * `<head>`). Self-contained: the early script inlines its source.
 */
export function showStaticNotFound(doc: Document, attribute: string): void {
  const source = doc.querySelector(`template[${attribute}]`);
  if (!(source instanceof HTMLTemplateElement) || doc.body) return;
  const screen = doc.createElement('div');
  screen.setAttribute(attribute, '');
  screen.appendChild(source.content.cloneNode(true));
  doc.documentElement.appendChild(screen);
  doc.documentElement.setAttribute(attribute, '');
}

/**
 * Shows `screen` (where React renders the app's own 404 screen) in place of the static one, or of
 * `<body>` after a back navigation to an address that names no page.
 */
export function showAppNotFound(doc: Document, screen: HTMLElement): void {
  let holder = doc.querySelector(`html > div[${MISSING_PAGE_ATTRIBUTE}]`);
  if (!holder) {
    holder = doc.createElement('div');
    holder.setAttribute(MISSING_PAGE_ATTRIBUTE, '');
    doc.documentElement.insertBefore(holder, doc.body);
  }
  if (holder.firstChild !== screen || holder.childNodes.length !== 1) holder.replaceChildren(screen);
  doc.documentElement.setAttribute(MISSING_PAGE_ATTRIBUTE, '');
  setNotFoundTitle(doc, MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE);
}

/** Removes every mark once the address names a page again: `<body>` shows the page. */
export function clearMissingPageMarks(doc: Document): void {
  for (const element of doc.querySelectorAll(`html > div[${MISSING_PAGE_ATTRIBUTE}], title[${MISSING_PAGE_ATTRIBUTE}]`))
    element.remove();
  doc.documentElement.removeAttribute(MISSING_PAGE_ATTRIBUTE);
}
