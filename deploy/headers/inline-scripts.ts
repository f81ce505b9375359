import { createHash } from 'node:crypto';

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Every `<script>` element of an HTML page, in order: its attributes' text and its body. */
export function scriptElements(html: string): { attributes: string; body: string }[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((match) => ({
    attributes: match[1] ?? '',
    body: match[2] ?? '',
  }));
}

/**
 * The CSP hash sources of an HTML page's inline scripts (`<script>` without `src`, of an executable
 * type). Next.js streams its React payload in such scripts; hashing their exact text lets a strict
 * policy allow them without `'unsafe-inline'`.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const { attributes, body } of scriptElements(html)) {
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && !['text/javascript', 'module', 'application/javascript'].includes(type)) continue;
    hashes.add(sha256Source(body));
  }
  return [...hashes].sort();
}

/**
 * The CSP hash sources of an HTML page's `<style>` elements. The site's pages have none today (the
 * stylesheet is a file, next.config.mjs); should a page or a Next.js release put one in, its hash
 * allows exactly that text without `'unsafe-inline'`. A style element's text is raw: the browser
 * hashes exactly the characters between the tags, as done here.
 */
export function inlineStyleHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) hashes.add(sha256Source(match[1] ?? ''));
  return [...hashes].sort();
}

/** True when the HTML has `style="..."` attributes, which no hash source can allow. */
export function hasStyleAttributes(html: string): boolean {
  return /<[a-z][^>]*\sstyle\s*=/i.test(html);
}
