/**
 * Tailwind's browser build, served from the site's own origin at TAILWIND_RUNTIME_PATH.
 *
 * The visual-edit agent (lib/frame/visual-edit/tailwind-runtime.ts) loads it with a `<script src>`
 * when the editor turns edit mode on; the site's CSP allows scripts from our own origin only, so it
 * cannot come from a CDN. Only the editor preview build and `next dev` need it: production's CSP
 * allows no inline style, so the `<style>` the runtime writes could never apply there, and its 282 KB
 * have no business in what a production host serves. So the build puts it into the preview export
 * and takes it out of every other (build-steps/site/build-site.ts), and `npm run dev` serves it from
 * public/vendor (gitignored).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { TAILWIND_RUNTIME_PATH } from '../../lib/frame/visual-edit/tailwind-runtime';

const ROOT = path.resolve(__dirname, '../..');

/** Where `next dev` serves static files from. */
export const PUBLIC_DIR = path.join(ROOT, 'public');

export const VENDOR_FILES = [
  { from: require.resolve('@tailwindcss/browser', { paths: [ROOT] }), servedAt: TAILWIND_RUNTIME_PATH },
];

const placeIn = (root: string, servedAt: string) => path.join(root, ...servedAt.split('/').filter(Boolean));

/**
 * Copies each vendor file into `root` (a folder served as the site's root) unless the copy there is
 * already identical; returns the files it wrote.
 */
export function copyVendorFiles(root: string = PUBLIC_DIR): string[] {
  const written: string[] = [];
  for (const { from, servedAt } of VENDOR_FILES) {
    const to = placeIn(root, servedAt);
    if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
    written.push(path.relative(root, to));
  }
  return written;
}

/**
 * Removes the vendor files from an export (Next copies public/ into it, where `npm run dev` may have
 * left them), and their folders once empty; returns the files it removed.
 */
export function removeVendorFiles(root: string): string[] {
  const removed: string[] = [];
  for (const { servedAt } of VENDOR_FILES) {
    const file = placeIn(root, servedAt);
    if (!existsSync(file)) continue;
    rmSync(file);
    removed.push(path.relative(root, file));
    for (let dir = path.dirname(file); dir !== root && readdirSync(dir).length === 0; dir = path.dirname(dir)) {
      rmdirSync(dir);
    }
  }
  return removed;
}
