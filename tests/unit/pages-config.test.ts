import { generateStaticParams } from '@/app/[pageName]/page';
import ComingSoon from '@/components/pages/ComingSoon';
import { pageForPath } from '@/lib/site/page-for-path';
import { requestedPageName } from '@/lib/site/requested-page-name';
import { isPageName, mainPage, pageNames, pages } from '@/pages.config';

describe('page registry', () => {
  it('registers ComingSoon as the only page and the main page', () => {
    expect(pageNames).toEqual(['ComingSoon']);
    expect(mainPage).toBe('ComingSoon');
    expect(pages.ComingSoon).toBe(ComingSoon);
  });

  it('recognises only registered names, not inherited object keys', () => {
    expect(isPageName('ComingSoon')).toBe(true);
    for (const name of ['comingsoon', 'toString', '__proto__', 'constructor', '']) expect(isPageName(name)).toBe(false);
  });

  it('prerenders exactly the registered pages', () => {
    expect(generateStaticParams()).toEqual([{ pageName: 'ComingSoon' }]);
  });
});

describe('path -> page', () => {
  it.each([
    ['/', 'ComingSoon'],
    ['/ComingSoon', 'ComingSoon'],
    ['/ComingSoon/', 'ComingSoon'],
    ['/Coming%53oon', 'ComingSoon'],
    ['/comingsoon', null],
    ['/toString', null],
    ['/%E0%A4%A', null],
    ['/ComingSoon/extra', null],
  ])('%s shows %s', (path, page) => {
    expect(pageForPath(path)).toBe(page);
  });

  it('names the requested page for the 404 screen, decoded where it can be', () => {
    expect(requestedPageName('/')).toBeNull();
    expect(requestedPageName('/Über%20uns/')).toBe('Über uns');
    expect(requestedPageName('/%E0%A4%A')).toBe('%E0%A4%A');
  });
});
