/**
 * What `check:host` reads from a page's HTML, read as a browser reads it: parse5 builds the tree by
 * the WHATWG parsing algorithm (scripting on, as in a browser that runs the page), so a `<meta>`
 * inside a comment, a `<noscript>`, a `<template>` or an attribute value is no element, and one the
 * parser moves into `<body>` is not in `<head>`. The tree is walked in document order, never into a
 * template's content (inert: nothing in it runs, fetches or applies).
 */
import { parse, type DefaultTreeAdapterTypes as Tree } from 'parse5';

import { readEarlyScript, type EarlyScript } from './early-script';

export interface InlineScript {
  text: string;
  nonce: string | null;
}

/** A `<meta http-equiv="Content-Security-Policy">` a browser does not enforce, and why. */
export interface IgnoredPolicy {
  policy: string;
  reason: 'outside <head>' | 'after a script';
}

/** A `<meta name="referrer">` value, and whether it applied before the page made its first request. */
export interface ReferrerMeta {
  value: string;
  beforeFirstRequest: boolean;
}

export interface PageReading {
  /** The meta policies a browser enforces: children of `<head>` before the first script. */
  metaPolicies: string[];
  ignoredPolicies: IgnoredPolicy[];
  referrerMetas: ReferrerMeta[];
  /** The contents of `<meta name="robots">` and `<meta name="googlebot">`, lower-cased. */
  robots: string[];
  /** The scripts a browser runs from the page's own text (classic and module), in order. */
  inlineScripts: InlineScript[];
  /** The site's early script (lib/site/early-document.ts), when the page carries it in `<head>`. */
  earlyScript: EarlyScript | null;
  /** Whether the static 404 screen's `<template>` is in `<head>`, before the early script. */
  missingTemplate: boolean;
  /** The document's title, whitespace collapsed; null without a `<title>`. */
  title: string | null;
  /** The first `/_next/static/...` file the page loads (script or stylesheet), or null. */
  staticAsset: string | null;
}

type Element = Tree.Element;

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

function isElement(node: Tree.ChildNode): node is Element {
  return 'tagName' in node;
}

/** An HTML element of this name (an SVG `<title>` or `<meta>` is another thing). */
function isHtml(element: Element, tagName: string): boolean {
  return element.tagName === tagName && element.namespaceURI === HTML_NAMESPACE;
}

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((candidate) => candidate.name === name)?.value ?? null;
}

function textOf(element: Element): string {
  return element.childNodes.map((node) => (node.nodeName === '#text' ? (node as Tree.TextNode).value : '')).join('');
}

/** Every element in document order, template contents left out. */
function* elementsOf(parent: Tree.ParentNode): Generator<Element> {
  for (const node of parent.childNodes) {
    if (!isElement(node)) continue;
    yield node;
    yield* elementsOf(node);
  }
}

/** The JavaScript MIME type essences of the HTML standard (no parameters: `;charset=` is not run). */
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/** Whether a browser runs this `<script>` (HTML's "prepare the script element": classic or module). */
function runsAsScript(element: Element): boolean {
  const type = attribute(element, 'type');
  const language = attribute(element, 'language');
  let essence: string;
  if (type === '' || (type === null && !language)) essence = 'text/javascript';
  else if (type === null) essence = `text/${language ?? ''}`;
  else essence = type.trim();
  essence = essence.toLowerCase();
  return JAVASCRIPT_TYPES.has(essence) || essence === 'module';
}

/** `<link>` relations a browser fetches as soon as it meets them. */
const FETCHING_LINKS = new Set([
  'stylesheet',
  'preload',
  'modulepreload',
  'icon',
  'prefetch',
  'preconnect',
  'manifest',
]);

/** Elements that send a request (with a Referer) when the parser inserts them. */
function requests(element: Element): boolean {
  if (element.namespaceURI !== HTML_NAMESPACE) return false;
  switch (element.tagName) {
    case 'script':
    case 'img':
    case 'iframe':
    case 'embed':
    case 'video':
    case 'audio':
    case 'source':
    case 'input':
      return attribute(element, 'src') !== null || attribute(element, 'srcset') !== null;
    case 'link':
      return (attribute(element, 'rel') ?? '')
        .toLowerCase()
        .split(/\s+/)
        .some((rel) => FETCHING_LINKS.has(rel));
    case 'object':
      return attribute(element, 'data') !== null;
    default:
      return false;
  }
}

function metaName(element: Element, name: 'http-equiv' | 'name'): string {
  return (attribute(element, name) ?? '').trim().toLowerCase();
}

function staticAssetOf(element: Element): string | null {
  let url: string | null = null;
  if (isHtml(element, 'script')) url = attribute(element, 'src');
  else if (isHtml(element, 'link')) url = attribute(element, 'href');
  return url !== null && url.startsWith('/_next/static/') ? url : null;
}

interface Position {
  inHead: boolean;
  seenScript: boolean;
  seenRequest: boolean;
}

function readMeta(element: Element, where: Position, reading: PageReading): void {
  const content = attribute(element, 'content');
  if (content === null) return;
  if (metaName(element, 'http-equiv') === 'content-security-policy' && content.trim() !== '') {
    if (!where.inHead) reading.ignoredPolicies.push({ policy: content, reason: 'outside <head>' });
    else if (where.seenScript) reading.ignoredPolicies.push({ policy: content, reason: 'after a script' });
    else reading.metaPolicies.push(content);
  }
  const name = metaName(element, 'name');
  if (name === 'referrer') reading.referrerMetas.push({ value: content, beforeFirstRequest: !where.seenRequest });
  if (name === 'robots' || name === 'googlebot') reading.robots.push(content.toLowerCase());
}

/** Records an inline script; the first one in `<head>` that is the early script is the page's. */
function readInlineScript(element: Element, inHead: boolean, templates: Element[], reading: PageReading): void {
  const text = textOf(element);
  reading.inlineScripts.push({ text, nonce: attribute(element, 'nonce') });
  const early = inHead && reading.earlyScript === null ? readEarlyScript(text) : null;
  if (early === null) return;
  reading.earlyScript = early;
  reading.missingTemplate = templates.some(
    (template) =>
      attribute(template, early.missingAttribute) !== null &&
      (template as Tree.Template).content.childNodes.some(isElement),
  );
}

function emptyReading(): PageReading {
  return {
    metaPolicies: [],
    ignoredPolicies: [],
    referrerMetas: [],
    robots: [],
    inlineScripts: [],
    earlyScript: null,
    missingTemplate: false,
    title: null,
    staticAsset: null,
  };
}

/** Reads the parts of a page that `check:host` judges. */
export function readPage(html: string): PageReading {
  const document = parse(html);
  const root = document.childNodes.find((node): node is Element => isElement(node) && isHtml(node, 'html'));
  const head = root?.childNodes.find((node): node is Element => isElement(node) && isHtml(node, 'head'));
  const reading = emptyReading();
  const position: Position = { inHead: false, seenScript: false, seenRequest: false };
  const templates: Element[] = [];
  for (const element of elementsOf(document)) {
    position.inHead = element.parentNode === head;
    if (isHtml(element, 'meta')) readMeta(element, position, reading);
    if (isHtml(element, 'title') && reading.title === null) reading.title = textOf(element).replace(/\s+/g, ' ').trim();
    if (isHtml(element, 'template') && position.inHead) templates.push(element);
    reading.staticAsset ??= staticAssetOf(element);
    position.seenRequest ||= requests(element);
    if (element.tagName !== 'script') continue;
    position.seenScript = true;
    if (attribute(element, 'src') === null && runsAsScript(element)) {
      readInlineScript(element, position.inHead, templates, reading);
    }
  }
  return reading;
}
