import ComingSoon from '@/components/pages/ComingSoon';
import { generateStaticParams } from '@/app/[pageName]/page';
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
