/**
 * Makes Tailwind classes sent by the editor take effect even when the build never saw them.
 *
 * The production CSS only holds the utilities the source used, so a class picked in the editor
 * (say `bg-fuchsia-700`) would change the class list and nothing on screen. While edit mode is on we
 * load Tailwind's browser build, which watches class attributes and generates the missing CSS.
 *
 * It is served from our own origin (build-steps/site/copy-vendor.ts) as a plain `<script src>`: the
 * site's CSP allows no third-party and no inline scripts, and the browser build needs neither `eval`
 * nor inline script. It writes its CSS into a `<style>` element (a style, not a script), which only
 * the editor preview's policy allows, so only the preview build and `next dev` serve it. It is
 * loaded only when edit mode turns on, so neither visitors nor a framed page that is not being
 * edited download it.
 */
import { isDevelopmentBuild, readBuildEnv, type BuildEnv } from '@/lib/config/env';

export const TAILWIND_RUNTIME_PATH = '/vendor/tailwindcss-browser.js';
const MARKER_ATTRIBUTE = 'data-visual-edit-tailwind';

/**
 * The browser build's input. Without one it compiles all of `tailwindcss` (theme, preflight,
 * utilities) into a style sheet placed after ours, and its default theme values would then win
 * over the site's own `@theme` (the font stack, for one). Putting its theme in a layer nested inside
 * `theme` keeps it below ours (styles directly in a layer beat those of its nested layers), and the
 * preflight is left out because the site's CSS already has it.
 */
export const TAILWIND_RUNTIME_INPUT = [
  '@layer theme, base, components, utilities;',
  '@import "tailwindcss/theme.css" layer(theme.editor);',
  '@import "tailwindcss/utilities.css" layer(utilities);',
].join('\n');

const loads = new WeakMap<Document, Promise<void>>();

/** Loads the browser build once per document; resolves when it has run, rejects if it failed. */
export function loadTailwindRuntime(doc: Document, src: string = TAILWIND_RUNTIME_PATH): Promise<void> {
  const existing = loads.get(doc);
  if (existing) return existing;

  const loading = new Promise<void>((resolve, reject) => {
    // Its input must be in the document before the script runs: it reads it on start.
    const input = doc.createElement('style');
    input.setAttribute('type', 'text/tailwindcss');
    input.setAttribute(MARKER_ATTRIBUTE, 'input');
    input.textContent = TAILWIND_RUNTIME_INPUT;
    doc.head.append(input);

    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    script.setAttribute(MARKER_ATTRIBUTE, 'runtime');
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => reject(new Error(`Could not load ${src}`)), { once: true });
    doc.head.append(script);
  });
  loads.set(doc, loading);
  // A failed load may be retried on the next edit-mode toggle.
  loading.catch(() => {
    if (loads.get(doc) === loading) loads.delete(doc);
    doc.querySelectorAll(`[${MARKER_ATTRIBUTE}]`).forEach((node) => node.remove());
  });
  return loading;
}

/**
 * How edit mode loads the runtime in this build: the editor preview (source annotations on) and
 * `next dev` serve it. A production build does not: its CSP refuses the `<style>` the runtime writes,
 * so there edit mode does without it (classes the stylesheet lacks show no change) and asks for no
 * file the build leaves out.
 */
export function tailwindRuntimeLoader(
  env: Pick<BuildEnv, 'sourceAnnotations'> = readBuildEnv(),
  development: boolean = isDevelopmentBuild(),
): (doc: Document) => Promise<void> {
  return env.sourceAnnotations === '1' || development ? (doc) => loadTailwindRuntime(doc) : () => Promise.resolve();
}
