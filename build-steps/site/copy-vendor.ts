/**
 * Copies Tailwind's browser build into public/vendor so the site serves it from its own origin.
 *
 * The visual-edit agent (lib/frame/visual-edit/tailwind-runtime.ts) loads it with a `<script src>`
 * when the editor turns edit mode on; the site's CSP allows scripts from our own origin only, so it
 * cannot come from a CDN. Run before every build (build-steps/site/build-site.ts and tools/site/dev.ts do); idempotent.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export const VENDOR_FILES = [
  {
    from: require.resolve('@tailwindcss/browser', { paths: [ROOT] }),
    to: path.join(ROOT, 'public', 'vendor', 'tailwindcss-browser.js'),
  },
];

/** Copies each vendor file unless the copy is already identical; returns the files it wrote. */
export function copyVendorFiles(): string[] {
  const written: string[] = [];
  for (const { from, to } of VENDOR_FILES) {
    if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
    written.push(path.relative(ROOT, to));
  }
  return written;
}
