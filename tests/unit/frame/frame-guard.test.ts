import { FRAME_GUARD_ATTRIBUTE, judgeFraming, releaseFrameGuard, type FramingView } from '@/lib/frame/frame-guard';

const SITE = 'https://site.example';
const EDITOR = 'https://editor.example';
const EDITORS = [EDITOR];

interface Options {
  /** Chromium/WebKit: the ancestors, nearest first; omitted: Firefox (none reported). */
  ancestors?: string[];
  referrer?: string;
  /** The parent's origin where it is readable (same-origin); omitted: cross-origin, reading throws. */
  readableParent?: string;
  /** The parent is itself framed. */
  nested?: boolean;
}

function framed({ ancestors, referrer = '', readableParent, nested = false }: Options): FramingView {
  const top = {};
  const parent = {
    get location() {
      if (readableParent === undefined) throw new DOMException('Blocked a frame', 'SecurityError');
      return { origin: readableParent };
    },
  };
  return {
    self: {},
    top: nested ? top : parent,
    parent,
    location: { origin: SITE, ...(ancestors ? { ancestorOrigins: ancestors } : {}) },
    document: { referrer },
  };
}

describe('judgeFraming', () => {
  it('leaves a top-level page alone', () => {
    const win = { self: 1, top: 1, parent: 1, location: { origin: SITE }, document: { referrer: '' } };
    expect(judgeFraming(win, EDITORS, false)).toBe('top');
  });

  describe('where the engine lists the ancestors (Chromium, WebKit)', () => {
    it.each([
      [[EDITOR], 'trusted'],
      [[SITE], 'trusted'],
      [[SITE, EDITOR], 'trusted'],
      [['https://evil.example'], 'hostile'],
      [[EDITOR, 'https://evil.example'], 'hostile'],
      [['null'], 'hostile'],
      [['https://editor.example.evil.example'], 'hostile'],
      [['http://editor.example'], 'hostile'],
    ])('%j -> %s', (ancestors, verdict) => {
      // A referrer naming the editor changes nothing where the ancestors are known.
      expect(judgeFraming(framed({ ancestors, referrer: `${EDITOR}/app` }), EDITORS, false)).toBe(verdict);
    });

    it('allows loopback editors only when told to (development)', () => {
      const win = framed({ ancestors: ['http://localhost:5173'] });
      expect(judgeFraming(win, EDITORS, false)).toBe('hostile');
      expect(judgeFraming(win, EDITORS, true)).toBe('trusted');
      expect(judgeFraming(framed({ ancestors: ['http://localhost.evil.example'] }), EDITORS, true)).toBe('hostile');
    });
  });

  describe('where it does not (Firefox)', () => {
    it('trusts a frame of the top page that the allowlisted editor loaded', () => {
      expect(judgeFraming(framed({ referrer: `${EDITOR}/editor?app=1` }), EDITORS, false)).toBe('trusted');
    });

    it('trusts a frame whose parent is the site itself', () => {
      expect(judgeFraming(framed({ readableParent: SITE }), EDITORS, false)).toBe('trusted');
    });

    it.each<[string, Options]>([
      ['a referrer of another site', { referrer: 'https://evil.example/' }],
      ['no referrer', {}],
      ['its own page as referrer (a navigation inside the frame)', { referrer: `${SITE}/ComingSoon` }],
      ['a malformed referrer', { referrer: 'not a url' }],
      ['the editor as referrer, but the parent is framed itself', { referrer: `${EDITOR}/`, nested: true }],
      ['a same-origin parent that is framed itself', { readableParent: SITE, nested: true }],
    ])('leaves it unproven with %s', (_label, options) => {
      expect(judgeFraming(framed(options), EDITORS, false)).toBe('unproven');
    });
  });

  it('runs from its own source text alone, as the early script inlines it', () => {
    const fromSource = new Function(`return (${judgeFraming.toString()})`)() as typeof judgeFraming;
    expect(fromSource(framed({ ancestors: ['https://evil.example'] }), EDITORS, false)).toBe('hostile');
    expect(fromSource(framed({ referrer: `${EDITOR}/` }), EDITORS, false)).toBe('trusted');
  });
});

describe('releaseFrameGuard', () => {
  const root = document.documentElement;
  afterEach(() => {
    root.removeAttribute(FRAME_GUARD_ATTRIBUTE);
    root.inert = false;
  });

  it('lifts an unproven guard: the controls work again', () => {
    root.setAttribute(FRAME_GUARD_ATTRIBUTE, 'unproven');
    root.inert = true;
    expect(releaseFrameGuard(window)).toBe(true);
    expect(root.hasAttribute(FRAME_GUARD_ATTRIBUTE)).toBe(false);
    expect(root.inert).toBe(false);
  });

  it('never lifts a hostile verdict', () => {
    root.setAttribute(FRAME_GUARD_ATTRIBUTE, 'hostile');
    root.inert = true;
    expect(releaseFrameGuard(window)).toBe(false);
    expect(root.getAttribute(FRAME_GUARD_ATTRIBUTE)).toBe('hostile');
    expect(root.inert).toBe(true);
  });

  it('does nothing on an unguarded page', () => {
    expect(releaseFrameGuard(window)).toBe(false);
    expect(root.inert).toBe(false);
  });
});
