/**
 * `_headers` as Netlify itself reads it: parsed by `@netlify/headers-parser` (the parser Netlify's
 * build and CLI use, pinned as a devDependency), matched with the path patterns it compiles, merged
 * the way Netlify applies them (a later rule's value replaces an earlier one). Every path must get
 * exactly the headers our policy names, and Cloudflare's `! Access-Control-Allow-Origin` line must
 * neither be an error nor turn into a header.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';

import { headersForPath, toHeadersFile } from '@/deploy/headers/formats';
import { buildHeaderRules, type PolicyInput } from '@/deploy/headers/policy';

const input: PolicyInput = {
  pages: [
    { file: 'index.html', paths: ['/', '/index.html'], scriptHashes: ["'sha256-home'"], styleHashes: ["'sha256-css'"] },
    {
      file: 'ComingSoon.html',
      paths: ['/ComingSoon', '/ComingSoon/', '/ComingSoon.html'],
      scriptHashes: ["'sha256-page'"],
      styleHashes: ["'sha256-css'"],
    },
    { file: '404.html', paths: ['/404', '/404/', '/404.html'], scriptHashes: ["'sha256-404'"], styleHashes: [] },
  ],
  otherFiles: ['/robots.txt', '/icon.svg', '/index.txt'],
  platformOrigins: ['https://platform.example'],
  editorOrigins: ['https://editor.example'],
};

const PATHS = [
  '/',
  '/index.html',
  '/ComingSoon',
  '/ComingSoon/',
  '/ComingSoon.html',
  '/404.html',
  '/robots.txt',
  '/index.txt',
  '/_next/static/chunks/app.js',
  '/_next/static/css/x.css',
  '/does-not-exist',
  '/_next/other',
];

let dir: string;
let parsed: Header[];
const rules = buildHeaderRules(input);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'netlify-headers-'));
  const file = path.join(dir, '_headers');
  writeFileSync(file, toHeadersFile(rules));
  const result = await parseAllHeaders({ headersFiles: [file], configHeaders: [], minimal: false });
  expect(result.errors).toEqual([]);
  parsed = result.headers as Header[];
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The headers Netlify sends for a path: every rule whose pattern matches, later values winning. */
function netlifyHeaders(urlPath: string): Record<string, string> {
  return Object.assign({}, ...parsed.filter((rule) => rule.forRegExp.test(urlPath)).map((rule) => rule.values));
}

it('reads every rule as written, and the `!` line as nothing', () => {
  expect(parsed.map((rule) => ({ for: rule.for, values: rule.values }))).toEqual(
    rules.map((rule) => ({ for: rule.path, values: rule.headers })),
  );
  for (const rule of parsed) expect(Object.keys(rule.values).join()).not.toMatch(/Access-Control|!/i);
});

it.each(PATHS)('%s gets exactly the headers of our policy', (urlPath) => {
  expect(netlifyHeaders(urlPath)).toEqual(headersForPath(rules, urlPath));
  expect(netlifyHeaders(urlPath)['Content-Security-Policy']).toMatch(/^default-src 'self'; script-src /);
});
