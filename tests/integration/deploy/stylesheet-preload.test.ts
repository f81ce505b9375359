import { buildHeaderRules, type PolicyInput } from '@/deploy/headers/policy';
import { stylesheetHrefs, stylesheetPreloadHeader } from '@/deploy/headers/stylesheet-preload';

const CSS = '/_next/static/chunks/1oodbiq0pcjpn.css';

describe('stylesheetHrefs', () => {
  it('finds the stylesheet links of a page in order, and nothing else', () => {
    const html =
      `<head><link rel="preload" as="style" href="/_next/static/chunks/p.css"/><link rel="stylesheet" href="${CSS}" data-precedence="next"/>` +
      '<link rel="icon" href="/icon.png"/></head><body><link data-x="1" rel="stylesheet" href="/_next/static/b.css"></body>';
    expect(stylesheetHrefs(html)).toEqual([CSS, '/_next/static/b.css']);
    expect(stylesheetHrefs('<p>no styles</p>')).toEqual([]);
  });
});

describe('stylesheetPreloadHeader', () => {
  it('preloads each stylesheet once, in order', () => {
    expect(stylesheetPreloadHeader([CSS, '/_next/static/b.css', CSS])).toBe(
      `<${CSS}>; rel=preload; as=style, </_next/static/b.css>; rel=preload; as=style`,
    );
    expect(stylesheetPreloadHeader([])).toBeNull();
  });

  it('refuses an address that could break the header or leave the build', () => {
    for (const href of [
      '/_next/static/a>.css',
      '/_next/static/a.css, </x>',
      '/_next/static/../../x.css',
      'https://cdn.example/a.css',
    ]) {
      expect(() => stylesheetPreloadHeader([href])).toThrow(/unexpected stylesheet address/);
    }
  });
});

describe('the header rules', () => {
  const page = (file: string, paths: string[], stylesheets?: string[]) => ({
    file,
    paths,
    scriptHashes: [],
    styleHashes: [],
    ...(stylesheets ? { stylesheets } : {}),
  });
  const input = (stylesheets?: string[]): PolicyInput => ({
    pages: [page('index.html', ['/'], stylesheets), page('404.html', ['/404.html'], stylesheets)],
    otherFiles: ['/robots.txt'],
    platformOrigins: [],
    editorOrigins: [],
  });

  it("send the preload with the site's other headers on every answer (the 404 screen of any path too), once", () => {
    const rules = buildHeaderRules(input([CSS]));
    expect(rules.find((rule) => rule.path === '/*')?.headers.Link).toBe(`<${CSS}>; rel=preload; as=style`);
    expect(rules.filter((rule) => 'Link' in rule.headers)).toHaveLength(1);
  });

  it('send none for pages without a stylesheet', () => {
    expect(buildHeaderRules(input()).some((rule) => 'Link' in rule.headers)).toBe(false);
  });

  it("preload only what every page links, never one page's own stylesheet on all the others", () => {
    const own = '/_next/static/chunks/own.css';
    const rules = buildHeaderRules({
      ...input(),
      pages: [page('index.html', ['/'], [CSS, own]), page('404.html', ['/404.html'], [CSS])],
    });
    expect(rules.find((rule) => rule.path === '/*')?.headers.Link).toBe(`<${CSS}>; rel=preload; as=style`);
    const unshared = buildHeaderRules({
      ...input(),
      pages: [page('index.html', ['/'], [own]), page('404.html', ['/404.html'], [CSS])],
    });
    expect(unshared.some((rule) => 'Link' in rule.headers)).toBe(false);
  });
});
