import { acceptAppId, acceptConfiguredBaseUrl, acceptOverrideOrigin } from '@/lib/config/origin-allowlist';

const ALLOWED = ['https://platform.example', 'http://127.0.0.1:3001'];

describe('acceptOverrideOrigin: address-bar overrides must be a bare allowlisted origin', () => {
  it.each([
    ['https://platform.example', 'https://platform.example'],
    ['https://platform.example/', 'https://platform.example'],
    ['HTTPS://PLATFORM.EXAMPLE', 'https://platform.example'],
    ['https://platform.example:443', 'https://platform.example'],
    ['http://127.0.0.1:3001', 'http://127.0.0.1:3001'],
  ])('accepts %p as %p', (value, expected) => {
    expect(acceptOverrideOrigin(value, ALLOWED)).toBe(expected);
  });

  it.each([
    ['protocol-relative', '//evil.example'],
    ['protocol-relative to an allowed host', '//platform.example'],
    ['backslash trick', '/\\evil.example'],
    ['relative path', '/api'],
    ['javascript: URL', 'javascript:alert(1)'],
    ['data: URL', 'data:text/html,hi'],
    ['other scheme', 'http://platform.example'],
    ['other port', 'https://platform.example:8443'],
    ['other loopback port', 'http://127.0.0.1:3002'],
    ['localhost instead of 127.0.0.1', 'http://localhost:3001'],
    ['look-alike suffix', 'https://platform.example.evil.example'],
    ['look-alike prefix', 'https://evilplatform.example'],
    ['look-alike port-host', 'http://127.0.0.1:3001.evil.example'],
    ['credentials naming the allowed host', 'https://platform.example@evil.example'],
    ['credentials on the allowed host', 'https://user:pw@platform.example'],
    ['unicode look-alike', 'https://рlatform.example'],
    ['query string', 'https://platform.example/?x=1'],
    ['fragment', 'https://platform.example/#x'],
    ['a path on the allowed origin', 'https://platform.example/base'],
    ['a path with a trailing slash', 'https://platform.example/base/'],
    ['a path that only looks like the root', 'https://platform.example//'],
    ['an encoded path', 'https://platform.example/%2e%2e/x'],
    ['an empty query', 'https://platform.example/?'],
    ['an empty fragment', 'https://platform.example#'],
    ['empty', ''],
  ])('rejects %s (%p)', (_label, value) => {
    expect(acceptOverrideOrigin(value, ALLOWED)).toBeNull();
  });

  it.each([[null], [undefined], [123], [['https://platform.example']]])('rejects the non-string %p', (value) => {
    expect(acceptOverrideOrigin(value, ALLOWED)).toBeNull();
  });

  it('accepts nothing when the allowlist is empty', () => {
    expect(acceptOverrideOrigin('https://platform.example', [])).toBeNull();
  });
});

describe('acceptConfiguredBaseUrl: what the build may configure', () => {
  it.each([
    ['https://platform.example', 'https://platform.example'],
    ['https://platform.example/', 'https://platform.example'],
    ['https://platform.example/base/', 'https://platform.example/base'],
  ])('accepts %p as %p', (value, expected) => {
    expect(acceptConfiguredBaseUrl(value)).toBe(expected);
  });

  it.each([
    ['https://platform.example/?x=1'],
    ['https://platform.example/#x'],
    ['https://u:p@platform.example'],
    ['//platform.example'],
    [''],
    [undefined],
  ])('rejects %p', (value) => {
    expect(acceptConfiguredBaseUrl(value)).toBeNull();
  });
});

describe('acceptAppId', () => {
  it.each(['coming-soon', 'members_only', '64a1b2c3d4e5f60718293a4b'])('accepts %p', (id) => {
    expect(acceptAppId(id)).toBe(id);
  });

  it.each(['', '..', '../x', 'a/b', 'a b', '-leading', 'x'.repeat(129), '%2e%2e'])('rejects %p', (id) => {
    expect(acceptAppId(id)).toBeNull();
  });
});
