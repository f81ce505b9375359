/**
 * Writes the deploy configuration for a static export, all from deploy/headers/policy.ts: what a
 * host reads from the uploaded folder goes into it (`_headers` for Netlify, Cloudflare Pages and
 * the preview server, `.htaccess` for Apache, `firebase.json`, `vercel.json`, and `serve.json` for
 * `serve`), what goes into a server's own configuration into deploy/generated/ (the nginx, Apache
 * and Caddy snippets); and the same policy as `<meta>` in every page for hosts that send no headers
 * (early-head.ts), in an order that lets it paint before the framework runs (first-paint-order.ts).
 * Run after `next build` (npm run build and build-steps/site/build-site.ts do).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { toHeadersFile, toNginxSnippet } from '../../deploy/headers/formats';
import { hasStyleAttributes, inlineScriptHashes, inlineStyleHashes } from '../../deploy/headers/inline-scripts';
import {
  buildHeaderRules,
  metaContentSecurityPolicy,
  NOT_FOUND_FILES,
  REFERRER_POLICY,
  type PolicyInput,
  type SitePage,
} from '../../deploy/headers/policy';
import { hostConfigurations } from '../../deploy/headers/servers';
import { HOST_CONFIG_FILES } from '../../deploy/headers/servers/site-rules';
import { stylesheetHrefs } from '../../deploy/headers/stylesheet-preload';
import { DEFAULT_SERVER_URL, readBuildEnv, type BuildEnv } from '../../lib/config/env';
import { originOf, parseOriginList } from '../../lib/util';
import { insertEarlyHead, notFoundScreenOf } from './early-head';
import { firstPaintOrder } from './first-paint-order';

const ROOT = path.resolve(__dirname, '../..');

function walk(dir: string, base = ''): string[] {
  return readdirSync(path.join(dir, base)).flatMap((name) => {
    const relative = base ? `${base}/${name}` : name;
    return statSync(path.join(dir, relative)).isDirectory() ? walk(dir, relative) : [relative];
  });
}

/** The URL paths a static host serves an HTML file under. */
export function pathsOfHtmlFile(file: string): string[] {
  if (file === 'index.html') return ['/', '/index.html'];
  if (file.endsWith('/index.html')) {
    const dir = `/${file.slice(0, -'/index.html'.length)}`;
    return [dir, `${dir}/`, `/${file}`];
  }
  const bare = `/${file.slice(0, -'.html'.length)}`;
  return [bare, `${bare}/`, `/${file}`];
}

interface ExportedPage extends SitePage {
  html: string;
}

/**
 * Every HTML file of the export in its first-paint order (first-paint-order.ts, which adds the
 * framework's loader) with its CSP hashes, taken from that HTML.
 */
function readPages(root: string, files: string[], runtimeStyles: boolean): ExportedPage[] {
  return files
    .filter((file) => file.endsWith('.html'))
    .map((file) => {
      const html = firstPaintOrder(readFileSync(path.join(root, file), 'utf8'), file);
      // A style attribute needs 'unsafe-inline', which production never allows: stop the build
      // rather than ship a page that renders unstyled.
      if (!runtimeStyles && hasStyleAttributes(html))
        throw new Error(`${file}: style="..." attributes need 'unsafe-inline'; use classes`);
      return {
        file,
        html,
        paths: pathsOfHtmlFile(file),
        scriptHashes: inlineScriptHashes(html),
        styleHashes: inlineStyleHashes(html),
        stylesheets: stylesheetHrefs(html),
      };
    });
}

/** The policy input from the build settings: platform, overrides, editor and font origins. */
function policyInput(env: BuildEnv, pages: SitePage[], otherFiles: string[], runtimeStyles: boolean): PolicyInput {
  const platformOrigins = [env.serverUrl || DEFAULT_SERVER_URL, ...parseOriginList(env.overrideOrigins).origins]
    .map(originOf)
    .filter((origin): origin is string => origin !== null);
  const { origins: editorOrigins, rejected } = parseOriginList(env.editorOrigins);
  for (const { entry, reason } of rejected) console.warn(`NEXT_PUBLIC_EDITOR_ORIGINS: ignoring "${entry}": ${reason}`);
  // Font previews are an editor preview feature: a production policy never names font origins.
  const editorFontOrigins = runtimeStyles ? parseOriginList(env.editorFontOrigins).origins : [];
  return { pages, otherFiles, platformOrigins, editorOrigins, editorFontOrigins, runtimeStyles };
}

/**
 * Writes `_headers`, the other hosts' files and the server snippets for the export in `outDir`,
 * built with the settings `env` (this process's by default), then writes every page in its
 * first-paint order with the same policy (and the referrer policy, and the static 404 screen) in
 * its `<head>` (early-head.ts), which goes in after the hashes were taken. Returns the files it wrote.
 */
export function generateHeaders(
  outDir: string,
  env: BuildEnv = readBuildEnv(),
): { headersFile: string; nginxFile: string; written: string[] } {
  const root = path.resolve(ROOT, outDir);
  const files = walk(root).filter((file) => !HOST_CONFIG_FILES.includes(file));
  // The editor preview (source annotations on, see build-steps/site/build-site.ts PREVIEW_TARGET)
  // needs inline styles for edit mode; a production build never does.
  const runtimeStyles = env.sourceAnnotations === '1';
  const pages = readPages(root, files, runtimeStyles);
  const otherFiles = files
    .filter((file) => !file.endsWith('.html') && !file.startsWith('_next/static/'))
    .map((file) => `/${file}`);
  const input = policyInput(
    env,
    pages.map(({ html: _html, ...page }) => page),
    otherFiles,
    runtimeStyles,
  );
  const rules = buildHeaderRules(input);
  const headersFile = path.join(root, '_headers');
  writeFileSync(headersFile, toHeadersFile(rules));
  const nginxDir = path.join(ROOT, 'deploy', 'generated');
  mkdirSync(nginxDir, { recursive: true });
  const nginxFile = path.join(nginxDir, `nginx-${path.basename(root)}.conf`);
  writeFileSync(nginxFile, toNginxSnippet(rules));
  const written = [headersFile, nginxFile];
  for (const { place, name, text } of hostConfigurations(
    rules,
    files.map((file) => `/${file}`),
  )) {
    const file = path.join(place === 'folder' ? root : nginxDir, name.replace('<folder>', path.basename(root)));
    writeFileSync(file, text);
    written.push(file);
  }
  const contentSecurityPolicy = metaContentSecurityPolicy(input);
  const notFound = pages.find((page) => page.file === '404.html');
  if (!notFound) throw new Error(`${outDir}: no 404.html`);
  const screen = notFoundScreenOf(notFound.html);
  for (const page of pages) {
    const head = {
      contentSecurityPolicy,
      referrerPolicy: REFERRER_POLICY,
      notFoundScreen: NOT_FOUND_FILES.includes(page.file) ? null : screen,
    };
    writeFileSync(path.join(root, page.file), insertEarlyHead(page.html, head, page.file));
  }
  return { headersFile, nginxFile, written };
}
