/**
 * Theme previews: `update-theme-variables` sets CSS custom properties (and nothing else) on the
 * root or `.dark` element; `inject-font-import` and `inject-font-face` add the font CSS the
 * editor's theme picker sends, in the one shape the reference accepts and only from the font
 * origins this build allows (NEXT_PUBLIC_EDITOR_FONT_ORIGINS), which the preview CSP names too.
 * CSS is only ever written as the text of a `<style>` element, never as markup.
 */
import { originOf } from '@/lib/util';

/** Id of the one `<style>` holding the previewed font import (the reference's id). */
export const FONT_IMPORT_STYLE_ID = '__theme-font-preview';
/** Prefix of the `<style>` id per injected @font-face. */
export const FONT_FACE_STYLE_PREFIX = 'visual-edit-font-face-';

export function applyThemeVariables(
  doc: Document,
  variables: readonly (readonly [string, string])[],
  mode: 'light' | 'dark',
): boolean {
  const target = mode === 'dark' ? doc.querySelector('.dark') : doc.documentElement;
  const style = (target as Partial<HTMLElement> | null)?.style;
  if (!style) return false;
  // The parser only lets `--name` through; setProperty then treats the value as one value, so it
  // cannot end the declaration and start another.
  for (const [name, value] of variables) style.setProperty(name, value);
  return true;
}

/** Characters that could end a CSS url()/string or start an escape; none occur in a normalised font URL. */
const CSS_BREAKING = /["'\\()\s<>]/;

/** The normalised absolute URL, when it is on an allowed font origin and safe to put in CSS. */
export function allowedFontUrl(raw: string, allowedOrigins: readonly string[]): string | null {
  const origin = originOf(raw);
  if (origin === null || !allowedOrigins.includes(origin)) return null;
  const href = new URL(raw).href;
  return CSS_BREAKING.test(href) ? null : href;
}

/**
 * One `@font-face { ... }` rule, without escapes (which could hide anything), whose every `url()`
 * is on an allowed font origin.
 */
export function isAllowedFontFace(css: string, allowedOrigins: readonly string[]): boolean {
  const rule = css.trim();
  if (!rule.startsWith('@font-face') || rule.includes('\\') || !rule.endsWith('}')) return false;
  if (rule.split('{').length !== 2 || rule.split('}').length !== 2) return false;
  const urls = rule.split(/url\(/i).slice(1);
  return urls.every((chunk) => {
    const end = chunk.indexOf(')');
    if (end === -1) return false;
    const url = chunk
      .slice(0, end)
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim();
    return allowedFontUrl(url, allowedOrigins) !== null;
  });
}

function styleElement(doc: Document, id: string): HTMLStyleElement {
  const style = doc.createElement('style');
  style.id = id;
  return style;
}

export function injectFontImport(doc: Document, fontUrl: string, allowedOrigins: readonly string[]): boolean {
  const href = allowedFontUrl(fontUrl, allowedOrigins);
  if (href === null) return false;
  const existing = doc.getElementById(FONT_IMPORT_STYLE_ID);
  const style = existing?.tagName === 'STYLE' ? existing : styleElement(doc, FONT_IMPORT_STYLE_ID);
  style.textContent = `@import url("${href}");`;
  if (!style.isConnected) doc.head.append(style);
  return true;
}

export function injectFontFace(doc: Document, id: string, css: string, allowedOrigins: readonly string[]): boolean {
  if (!isAllowedFontFace(css, allowedOrigins)) return false;
  const styleId = `${FONT_FACE_STYLE_PREFIX}${id}`;
  // One rule per id, as in the reference: the first one stays.
  if (doc.getElementById(styleId)) return false;
  const style = styleElement(doc, styleId);
  style.setAttribute('data-visual-edit-font-face', 'true');
  style.textContent = css;
  doc.head.append(style);
  return true;
}
