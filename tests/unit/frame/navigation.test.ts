import { redactUrl, watchUrlChanges } from '@/lib/frame/navigation';

/** Lets queued microtasks (where changes are reported) run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('redactUrl', () => {
  it('removes credentials from the query and keeps everything else', () => {
    expect(redactUrl('http://site.test/ComingSoon?access_token=abc&tab=2#top')).toBe(
      'http://site.test/ComingSoon?tab=2#top',
    );
    expect(redactUrl('http://site.test/?token=abc')).toBe('http://site.test/');
  });

  it('returns addresses without credentials unchanged', () => {
    expect(redactUrl('http://site.test/a?b=c')).toBe('http://site.test/a?b=c');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('watchUrlChanges', () => {
  let urls: string[];
  let stop: () => void;
  const origin = window.location.origin;

  beforeEach(() => {
    window.history.replaceState(null, '', '/');
    urls = [];
    stop = watchUrlChanges(window, (url) => urls.push(url));
  });
  afterEach(() => stop());

  it('reports the address at once', () => {
    expect(urls).toEqual([`${origin}/`]);
  });

  it('reports pushState and replaceState navigations once each', async () => {
    window.history.pushState({}, '', '/ComingSoon');
    await settle();
    window.history.replaceState({}, '', '/ComingSoon?x=1');
    await settle();
    expect(urls).toEqual([`${origin}/`, `${origin}/ComingSoon`, `${origin}/ComingSoon?x=1`]);
  });

  it('collapses a push and a replace to the same address in one task', async () => {
    window.history.pushState({}, '', '/a');
    window.history.replaceState({ __NA: true }, '', '/a');
    await settle();
    expect(urls).toEqual([`${origin}/`, `${origin}/a`]);
  });

  it('reports back/forward (popstate) and hash changes', async () => {
    window.history.pushState({}, '', '/b');
    await settle();
    // jsdom does not move through history on back(); simulate what the browser does.
    window.history.replaceState({}, '', '/');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await settle();
    window.location.hash = 'section';
    await settle();
    expect(urls).toEqual([`${origin}/`, `${origin}/b`, `${origin}/`, `${origin}/#section`]);
  });

  it('never reports an access token', async () => {
    window.history.pushState({}, '', '/?access_token=secret&x=1');
    await settle();
    expect(urls.at(-1)).toBe(`${origin}/?x=1`);
  });

  it('restores the history methods when stopped and reports nothing after', async () => {
    const patchedPush = window.history.pushState;
    stop();
    expect(window.history.pushState).not.toBe(patchedPush);
    window.history.pushState({}, '', '/after');
    await settle();
    expect(urls).toEqual([`${origin}/`]);
  });

  it('leaves a later wrapper in place when stopped', async () => {
    const ours = window.history.pushState;
    const theirs = function (this: History, ...args: Parameters<History['pushState']>) {
      return ours.apply(this, args);
    };
    window.history.pushState = theirs;
    stop();
    expect(window.history.pushState).toBe(theirs);
    window.history.pushState({}, '', '/still-works');
    await settle();
    expect(window.location.pathname).toBe('/still-works');
    expect(urls).toEqual([`${origin}/`]);
    window.history.pushState = History.prototype.pushState;
  });
});
