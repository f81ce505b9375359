/**
 * Copies Tailwind's browser build into public/vendor so the site serves it from its own origin.
 *
 * The visual-edit agent (lib/frame/visual-edit/tailwind-runtime.ts) loads it with a `<script src>`
 * when the editor turns edit mode on; the site's CSP allows scripts from our own origin only, so it
 * cannot come from a CDN. Run before every build (`tsx scripts/copy-vendor.ts`); idempotent.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

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

if (require.main === module) {
  try {
    const written = copyVendorFiles();
    console.log(written.length ? `Copied ${written.join(', ')}` : 'public/vendor is up to date');
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
