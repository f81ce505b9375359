import { exportTargets, resultsByPage } from '../../../support/served-exports';

const served = { ours: 'http://o', empty: 'http://e', emptySameHeaders: 'http://h' };

describe('the three exports of the page benchmarks', () => {
  it('takes every page of the three in turn, page by page', () => {
    expect(exportTargets(served, ['/', '/a'])).toEqual([
      { label: 'ours /', url: 'http://o/' },
      { label: 'empty /', url: 'http://e/' },
      { label: 'empty, our headers /', url: 'http://h/' },
      { label: 'ours /a', url: 'http://o/a' },
      { label: 'empty /a', url: 'http://e/a' },
      { label: 'empty, our headers /a', url: 'http://h/a' },
    ]);
  });

  it('regroups the results of those runs by page and export', () => {
    const results = exportTargets(served, ['/', '/a']).map((target) => target.url);
    expect(resultsByPage(['/', '/a'], results)).toEqual([
      { page: '/', ours: 'http://o/', empty: 'http://e/', emptySameHeaders: 'http://h/' },
      { page: '/a', ours: 'http://o/a', empty: 'http://e/a', emptySameHeaders: 'http://h/a' },
    ]);
  });

  it('refuses results that miss an export of a page', () => {
    expect(() => resultsByPage(['/', '/a'], ['o', 'e', 'h', 'o'])).toThrow('no results for /a from every export');
  });
});
