import { exportTargets, resultsByPage } from '../../../support/served-exports';

const served = { ours: 'http://o', empty: 'http://e', emptySameHeaders: 'http://h', elsewhere: 'http://x' };

describe('the exports and starts of the page benchmarks', () => {
  it('takes every page of each export in turn, page by page, ours and the empty export also from another site', () => {
    expect(exportTargets(served, ['/', '/a'])).toEqual([
      { label: 'ours /', url: 'http://o/' },
      { label: 'empty /', url: 'http://e/' },
      { label: 'empty, our headers /', url: 'http://h/' },
      { label: 'ours from another site /', url: 'http://o/', startFrom: 'http://x/' },
      { label: 'empty from another site /', url: 'http://e/', startFrom: 'http://x/' },
      { label: 'ours /a', url: 'http://o/a' },
      { label: 'empty /a', url: 'http://e/a' },
      { label: 'empty, our headers /a', url: 'http://h/a' },
      { label: 'ours from another site /a', url: 'http://o/a', startFrom: 'http://x/' },
      { label: 'empty from another site /a', url: 'http://e/a', startFrom: 'http://x/' },
    ]);
  });

  it('regroups the results of those runs by page, export and start', () => {
    const results = exportTargets(served, ['/', '/a']).map((target) => target.label);
    expect(resultsByPage(['/', '/a'], results)).toEqual([
      {
        page: '/',
        ours: 'ours /',
        empty: 'empty /',
        emptySameHeaders: 'empty, our headers /',
        oursArriving: 'ours from another site /',
        emptyArriving: 'empty from another site /',
      },
      {
        page: '/a',
        ours: 'ours /a',
        empty: 'empty /a',
        emptySameHeaders: 'empty, our headers /a',
        oursArriving: 'ours from another site /a',
        emptyArriving: 'empty from another site /a',
      },
    ]);
  });

  it('refuses a page of "another site" on the host of an export, whatever its port', () => {
    const sameHost = { ours: 'http://127.0.0.1:3090', empty: 'http://e', emptySameHeaders: 'http://h' };
    expect(() => exportTargets({ ...sameHost, elsewhere: 'http://127.0.0.1:3094' }, ['/'])).toThrow(
      'http://127.0.0.1:3094 is not another site: it shares its host with ours',
    );
  });

  it('refuses results that miss an export of a page', () => {
    const results = exportTargets(served, ['/', '/a']).map((target) => target.label);
    expect(() => resultsByPage(['/', '/a'], results.slice(0, -1))).toThrow('no results for /a from every export');
  });
});
