/**
 * A small static export, as `npm run build` writes one: three pages that carry the policy in
 * `<meta>` and load one hashed asset, and the generated `_headers`. For tests of hosts and of
 * `check:host` that need no Next.js build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { toHeadersFile } from '@/deploy/headers/formats';
import { buildHeaderRules, metaContentSecurityPolicy, type PolicyInput } from '@/deploy/headers/policy';

export const SMALL_EXPORT_POLICY: PolicyInput = {
  pages: [
    { file: 'index.html', paths: ['/', '/index.html'], scriptHashes: [], styleHashes: [] },
    {
      file: 'ComingSoon.html',
      paths: ['/ComingSoon', '/ComingSoon/', '/ComingSoon.html'],
      scriptHashes: [],
      styleHashes: [],
    },
    { file: '404.html', paths: ['/404', '/404/', '/404.html'], scriptHashes: [], styleHashes: [] },
  ],
  otherFiles: [],
  platformOrigins: ['https://platform.example'],
  editorOrigins: ['https://editor.example'],
};

/** A page with the policy's `<meta>` elements and a `/_next/static` script. */
export function smallPage(title: string, input: PolicyInput): string {
  const policy = metaContentSecurityPolicy(input).replace(/'/g, '&#x27;');
  return [
    '<!DOCTYPE html><html><head><meta charSet="utf-8"/>',
    `<meta http-equiv="Content-Security-Policy" content="${policy}"/><meta name="referrer" content="strict-origin"/>`,
    `<title>${title}</title><script src="/_next/static/chunks/app-1.js"></script></head>`,
    `<body><h1>${title}</h1></body></html>`,
  ].join('');
}

export function writeSmallExport(dir: string): void {
  mkdirSync(path.join(dir, '_next', 'static', 'chunks'), { recursive: true });
  writeFileSync(path.join(dir, '_next', 'static', 'chunks', 'app-1.js'), 'console.log(1);');
  for (const [file, title] of [
    ['index.html', 'Home'],
    ['ComingSoon.html', 'Coming soon'],
    ['404.html', 'Page Not Found'],
  ] as const) {
    writeFileSync(path.join(dir, file), smallPage(title, SMALL_EXPORT_POLICY));
  }
  writeFileSync(path.join(dir, '_headers'), toHeadersFile(buildHeaderRules(SMALL_EXPORT_POLICY)));
}
