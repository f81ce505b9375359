import {
  createOriginPolicy,
  decideParentOrigin,
  isLoopbackOrigin,
  policyFromEnvironment,
} from '@/lib/frame/origin-policy';

const EDITOR = 'https://editor.example.com';
const SELF = 'https://site.example.org';

describe('createOriginPolicy', () => {
  const policy = createOriginPolicy([EDITOR], { allowLoopback: false });

  it('allows exactly the configured origin', () => {
    expect(policy.isAllowed(EDITOR)).toBe(true);
  });

  it.each([
    'https://editor.example.com.evil.test',
    'https://evil-editor.example.com',
    'https://sub.editor.example.com',
    'http://editor.example.com',
    'https://editor.example.com:8443',
    'https://editor.example.com/',
    'https://EDITOR.example.com',
    'null',
    '*',
    '',
  ])('refuses the look-alike %s', (origin) => {
    expect(policy.isAllowed(origin)).toBe(false);
  });

  it('refuses loopback origins unless told to allow them', () => {
    expect(policy.isAllowed('http://localhost:3000')).toBe(false);
    const development = createOriginPolicy([], { allowLoopback: true });
    expect(development.isAllowed('http://localhost:3000')).toBe(true);
    expect(development.isAllowed('http://127.0.0.1:5173')).toBe(true);
    expect(development.isAllowed('http://[::1]:8080')).toBe(true);
    expect(development.isAllowed('http://localhost.evil.test')).toBe(false);
    expect(development.isAllowed('http://127.0.0.2:3000')).toBe(false);
    expect(development.isAllowed(EDITOR)).toBe(false);
  });

  it('recognises loopback origins only in origin form', () => {
    expect(isLoopbackOrigin('http://localhost:3000')).toBe(true);
    expect(isLoopbackOrigin('http://localhost:3000/path')).toBe(false);
    expect(isLoopbackOrigin('file://localhost/etc')).toBe(false);
    expect(isLoopbackOrigin('not a url')).toBe(false);
  });
});

describe('policyFromEnvironment', () => {
  const saved = { origins: process.env.NEXT_PUBLIC_EDITOR_ORIGINS, nodeEnv: process.env.NODE_ENV };
  const env = process.env as Record<string, string | undefined>;
  afterEach(() => {
    env.NEXT_PUBLIC_EDITOR_ORIGINS = saved.origins;
    env.NODE_ENV = saved.nodeEnv;
  });

  it('reads NEXT_PUBLIC_EDITOR_ORIGINS and allows loopback only in development', () => {
    env.NEXT_PUBLIC_EDITOR_ORIGINS = `${EDITOR}, *`;
    env.NODE_ENV = 'production';
    const production = policyFromEnvironment();
    expect(production.policy.configured).toEqual([EDITOR]);
    expect(production.policy.isAllowed('http://localhost:3000')).toBe(false);
    expect(production.rejected).toHaveLength(1);

    env.NODE_ENV = 'development';
    expect(policyFromEnvironment().policy.isAllowed('http://localhost:3000')).toBe(true);
  });
});

describe('decideParentOrigin', () => {
  const single = createOriginPolicy([EDITOR], { allowLoopback: false });
  const several = createOriginPolicy([EDITOR, 'https://staging-editor.example.com'], { allowLoopback: false });
  const noHints = { ancestorOrigin: null, referrer: '', selfOrigin: SELF };

  it('pins the ancestor origin when the browser reports an allowed one', () => {
    expect(decideParentOrigin(several, { ...noHints, ancestorOrigin: 'https://staging-editor.example.com' })).toEqual({
      kind: 'pinned',
      origin: 'https://staging-editor.example.com',
    });
  });

  it('refuses when the browser reports a parent that is not allowed, even with one configured origin', () => {
    expect(decideParentOrigin(single, { ...noHints, ancestorOrigin: 'https://evil.test' })).toEqual({
      kind: 'refused',
      origin: 'https://evil.test',
    });
  });

  it('pins an allowed referrer when there is no ancestor information', () => {
    expect(
      decideParentOrigin(several, { ...noHints, referrer: 'https://staging-editor.example.com/apps/1/edit' }),
    ).toEqual({
      kind: 'pinned',
      origin: 'https://staging-editor.example.com',
    });
  });

  it('does not trust our own or a foreign referrer either way', () => {
    expect(decideParentOrigin(several, { ...noHints, referrer: `${SELF}/ComingSoon` })).toEqual({
      kind: 'undetermined',
    });
    expect(decideParentOrigin(several, { ...noHints, referrer: 'https://platform-login.example.net/login' })).toEqual({
      kind: 'undetermined',
    });
  });

  it('falls back to the only configured origin, and waits when there are several', () => {
    expect(decideParentOrigin(single, noHints)).toEqual({ kind: 'pinned', origin: EDITOR });
    expect(decideParentOrigin(several, noHints)).toEqual({ kind: 'undetermined' });
    expect(decideParentOrigin(createOriginPolicy([], { allowLoopback: false }), noHints)).toEqual({
      kind: 'undetermined',
    });
  });

  it('ignores a masked ("null") ancestor origin', () => {
    expect(decideParentOrigin(single, { ...noHints, ancestorOrigin: 'null' })).toEqual({
      kind: 'pinned',
      origin: EDITOR,
    });
  });
});
