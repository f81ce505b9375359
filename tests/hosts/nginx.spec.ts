/**
 * Real nginx with the generated snippet, set up as docs/DEPLOY.md says: what running it showed the
 * snippet must do, and first did not (folders answered 403 or a redirect to the folder, paths nginx
 * cannot decode its bare 400 page, and `/_headers` was served as a file). Each is now the site's 404
 * page with status 404 and the site's headers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { matrixUrls } from '../../support/hosts/matrix';
import { expect, test } from '../e2e/fixtures';
import { rawGet } from './raw-request';

const NOT_FOUND_PAGE = readFileSync(path.resolve(__dirname, '../../out/404.html'), 'utf8');
const { site } = matrixUrls('nginx');

for (const target of [
  '/_headers',
  '/vendor',
  '/vendor/',
  '/_next/',
  '/_next/static',
  '/%E0%A4%A',
  '/a%00b',
  '/%2e%2e/x',
]) {
  test(`nginx answers ${target} with the 404 page, status 404 and the site's headers`, async () => {
    const answer = await rawGet(site, target);
    expect(answer.status).toBe(404);
    expect(answer.body).toBe(NOT_FOUND_PAGE);
    expect(answer.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    // The 404 screen's stylesheet, preloaded as for every page.
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(answer.body)?.[1];
    expect(answer.headers.link).toBe(`<${stylesheet}>; rel=preload; as=style`);
  });
}
