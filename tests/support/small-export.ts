/**
 * A small static export, as `npm run build` writes one: three pages that carry what every exported
 * page carries (the policy in `<meta>`, the early script, and in every page but the 404 page the
 * static 404 screen as a `<template>`), load one hashed asset, and the generated `_headers`. For
 * tests of hosts and of `check:host` that need no Next.js build.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { toHeadersFile } from '@/deploy/headers/formats';
import { buildHeaderRules, metaContentSecurityPolicy, type PolicyInput } from '@/deploy/headers/policy';
import { FRAME_GUARD_ATTRIBUTE } from '@/lib/frame/frame-guard';
import { earlyDocumentScript } from '@/lib/site/early-document';
import { MISSING_PAGE_ATTRIBUTE, NOT_FOUND_TITLE } from '@/lib/site/missing-page';

/** The early script of lib/site/early-document.ts with the small export's settings. */
export const SMALL_EXPORT_EARLY_SCRIPT = earlyDocumentScript({
  pageNames: ['ComingSoon'],
  notFoundTitle: NOT_FOUND_TITLE,
  editorOrigins: ['https://editor.example'],
  allowLoopback: false,
  missingAttribute: MISSING_PAGE_ATTRIBUTE,
  frameAttribute: FRAME_GUARD_ATTRIBUTE,
});

/** The CSP hash source of an inline script's text. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const scriptHashes = [scriptHash(SMALL_EXPORT_EARLY_SCRIPT)];

export const SMALL_EXPORT_POLICY: PolicyInput = {
  pages: [
    { file: 'index.html', paths: ['/', '/index.html'], scriptHashes, styleHashes: [] },
    {
      file: 'ComingSoon.html',
      paths: ['/ComingSoon', '/ComingSoon/', '/ComingSoon.html'],
      scriptHashes,
      styleHashes: [],
    },
    { file: '404.html', paths: ['/404', '/404/', '/404.html'], scriptHashes, styleHashes: [] },
  ],
  otherFiles: [],
  platformOrigins: ['https://platform.example'],
  editorOrigins: ['https://editor.example'],
};

/** The static 404 screen every page but the 404 page carries (build-steps/export/early-head.ts). */
const NOT_FOUND_TEMPLATE = `<template ${MISSING_PAGE_ATTRIBUTE}=""><main><h1>Page Not Found</h1></main></template>`;

/**
 * A page with the policy's `<meta>` elements, the 404 template (unless it is the 404 page), a
 * `/_next/static` script and the early script, in the order the build writes them.
 */
export function smallPage(title: string, input: PolicyInput, { notFoundPage = false } = {}): string {
  const policy = metaContentSecurityPolicy(input).replace(/'/g, '&#x27;');
  return [
    '<!DOCTYPE html><html><head><meta charSet="utf-8"/>',
    `<meta http-equiv="Content-Security-Policy" content="${policy}"/><meta name="referrer" content="strict-origin"/>`,
    notFoundPage ? '' : NOT_FOUND_TEMPLATE,
    `<title>${title}</title><script src="/_next/static/chunks/app-1.js"></script>`,
    `<script>${SMALL_EXPORT_EARLY_SCRIPT}</script></head>`,
    `<body><h1>${title}</h1></body></html>`,
  ].join('');
}

export function writeSmallExport(dir: string): void {
  mkdirSync(path.join(dir, '_next', 'static', 'chunks'), { recursive: true });
  writeFileSync(path.join(dir, '_next', 'static', 'chunks', 'app-1.js'), 'console.log(1);');
  writeFileSync(path.join(dir, 'index.html'), smallPage('Home', SMALL_EXPORT_POLICY));
  writeFileSync(path.join(dir, 'ComingSoon.html'), smallPage('Coming soon', SMALL_EXPORT_POLICY));
  writeFileSync(path.join(dir, '404.html'), smallPage(NOT_FOUND_TITLE, SMALL_EXPORT_POLICY, { notFoundPage: true }));
  writeFileSync(path.join(dir, '_headers'), toHeadersFile(buildHeaderRules(SMALL_EXPORT_POLICY)));
}
