/**
 * The one origin-list parser (lib/util/origin-list.ts), for the override allowlist (lib/config,
 * the CSP's connect-src) and the editor origins (lib/frame, frame-ancestors).
 */
import { parseOriginList } from '@/lib/util';

describe('parseOriginList: the editor origins (NEXT_PUBLIC_EDITOR_ORIGINS)', () => {
  it('normalises bare origins and drops duplicates and blanks', () => {
    expect(
      parseOriginList(' https://Editor.Example.com/ , http://127.0.0.1:3110,,https://editor.example.com '),
    ).toEqual({
      origins: ['https://editor.example.com', 'http://127.0.0.1:3110'],
      rejected: [],
    });
  });

  it('keeps non-default ports and drops default ones, as browsers do in event.origin', () => {
    expect(parseOriginList('https://editor.example.com:443,https://editor.example.com:8443').origins).toEqual([
      'https://editor.example.com',
      'https://editor.example.com:8443',
    ]);
  });

  it.each([
    ['*', 'wildcards'],
    ['null', 'opaque origin'],
    ['editor.example.com', 'not an absolute URL'],
    ['ftp://editor.example.com', 'only http and https'],
    ['javascript:alert(1)', 'only http and https'],
    ['https://user:pw@editor.example.com', 'credentials'],
    ['https://editor.example.com/app', 'no path'],
    ['https://editor.example.com?x=1', 'no path'],
    ['https://editor.example.com#top', 'no path'],
  ])('rejects %s with a reason', (entry, reason) => {
    const parsed = parseOriginList(entry);
    expect(parsed.origins).toEqual([]);
    expect(parsed.rejected).toEqual([{ entry, reason: expect.stringContaining(reason) }]);
  });

  it('returns nothing for an unset variable', () => {
    expect(parseOriginList(undefined)).toEqual({ origins: [], rejected: [] });
    expect(parseOriginList('')).toEqual({ origins: [], rejected: [] });
  });
});

describe('parseOriginList: the override allowlist (NEXT_PUBLIC_OVERRIDE_ORIGINS)', () => {
  it('keeps bare http(s) origins, normalised and de-duplicated', () => {
    expect(parseOriginList(' https://a.example , HTTPS://A.EXAMPLE/,http://127.0.0.1:4000').origins).toEqual([
      'https://a.example',
      'http://127.0.0.1:4000',
    ]);
  });

  it.each([
    ['a path', 'https://a.example/app'],
    ['a query', 'https://a.example/?x=1'],
    ['credentials', 'https://u:p@a.example'],
    ['another scheme', 'javascript:alert(1)'],
    ['a protocol-relative entry', '//a.example'],
    ['a wildcard', 'https://*.example'],
  ])('drops an entry with %s', (_label, entry) => {
    expect(parseOriginList(`${entry},https://ok.example`).origins).toEqual(['https://ok.example']);
  });

  it('is empty for an unset or blank variable', () => {
    expect(parseOriginList(undefined).origins).toEqual([]);
    expect(parseOriginList(' , ').origins).toEqual([]);
  });
});
