/**
 * Adjusts the static export after `next build`, before the headers are hashed.
 *
 * Next.js hard-codes `<meta name="robots" content="noindex">` into its not-found page. Static hosts
 * answer unknown paths with that page and status 404, which already keeps them out of search
 * indexes; the meta tag only makes the page itself (e.g. /404.html) fail crawlability checks. It is
 * removed from the HTML and from the React payload (the HTML's inline scripts and the .txt files),
 * so hydration does not put it back. Each removal must match exactly, so a Next.js upgrade that
 * changes the markup stops the build instead of silently shipping something else.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const HTML_TAG = '<meta name="robots" content="noindex"/>';
const PAYLOAD_ELEMENT = '["$","meta",null,{"name":"robots","content":"noindex"}],';
const ESCAPED_PAYLOAD_ELEMENT = JSON.stringify(PAYLOAD_ELEMENT).slice(1, -1);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function removeAll(text: string, needle: string): { text: string; count: number } {
  const parts = text.split(needle);
  return { text: parts.join(''), count: parts.length - 1 };
}

/** Returns the files it changed. */
export function removeNotFoundNoindex(outDir: string): string[] {
  const changed: string[] = [];
  const candidates = [
    ...['404.html', '_not-found.html', '_not-found.txt'].map((file) => path.join(outDir, file)),
    ...filesUnder(path.join(outDir, '_not-found')),
  ];
  for (const file of candidates) {
    const original = readFileSync(file, 'utf8');
    if (!original.includes('noindex')) continue;
    const payload = removeAll(original, file.endsWith('.html') ? ESCAPED_PAYLOAD_ELEMENT : PAYLOAD_ELEMENT);
    const { count } = payload;
    let { text } = payload;
    if (file.endsWith('.html')) {
      const tag = removeAll(text, HTML_TAG);
      if (tag.count !== 1) throw new Error(`${file}: expected one robots noindex tag, found ${tag.count}`);
      text = tag.text;
    }
    if (count !== 1 || text.includes('noindex')) {
      throw new Error(
        `${file}: Next.js's not-found noindex no longer has the expected shape; update build-steps/export/postprocess-export.ts`,
      );
    }
    writeFileSync(file, text);
    changed.push(path.relative(outDir, file));
  }
  return changed;
}
