import { isExportedPagePath } from '@/lib/site/exported-paths';
import { pageForPath } from '@/lib/site/page-for-path';
import { pageNames } from '@/lib/site/page-names';

const PAGES = ['ComingSoon', 'Über uns'];

describe('isExportedPagePath: where the export shows a page (deploy/static-host rules)', () => {
  it.each([
    '/',
    '//',
    '/index',
    '/index/',
    '/index.html',
    '/ComingSoon',
    '/ComingSoon/',
    '/ComingSoon.html',
    '//ComingSoon',
    '//ComingSoon//',
    '/Coming%53oon',
    '/%C3%9Cber%20uns',
  ])('%s is a page', (path) => {
    expect(isExportedPagePath(path, PAGES)).toBe(true);
  });

  it.each(
    [
      '/does-not-exist',
      '/some/deep/path',
      '/comingsoon',
      '/ComingSoon/extra',
      '/ComingSoon.html/',
      '/index.html/',
      '/404',
      '/404.html',
      '/_not-found',
      '/toString',
      '/__proto__',
      '/%2F%2Fevil.example',
      '/ComingSoon%2F',
      '/%5CComingSoon',
      '/%2E/ComingSoon',
      '/%2e%2e/ComingSoon',
      '/ComingSoon%00',
      '/%E0%A4%A',
      '/%',
      `/${'a'.repeat(8000)}`,
      '//evil.example/x',
    ].map((path) => [path.length > 40 ? `${path.slice(0, 12)}… (${path.length} characters)` : path, path]),
  )('%s is no page', (_label, path) => {
    expect(isExportedPagePath(path, PAGES)).toBe(false);
  });

  it('agrees with the page a path shows wherever that path is served as a page', () => {
    for (const path of ['/', '/ComingSoon', '/ComingSoon/', '/Coming%53oon', '/x', '/ComingSoon/x']) {
      expect(isExportedPagePath(path, pageNames)).toBe(pageForPath(path) !== null);
    }
  });

  it('runs from its own source text alone, as the early script inlines it', () => {
    const fromSource = new Function(`return (${isExportedPagePath.toString()})`)() as typeof isExportedPagePath;
    for (const path of ['/', '/ComingSoon.html', '/x', '/%', '//ComingSoon']) {
      expect(fromSource(path, PAGES)).toBe(isExportedPagePath(path, PAGES));
    }
  });
});
