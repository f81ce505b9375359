/**
 * The public pages in every engine, under the production headers of `npm start`: readable, hydrated,
 * the 404 screen for anything else, and crafted paths that must neither crash the app nor leave the
 * access token in the address bar (a `//` path once made `history.replaceState` throw).
 */
import { loginToken } from '../e2e/support/platform';
import { expect, expectedStatus, test, until } from './fixtures';
import { mainState, SITE } from './page-state';

const HEADING = 'Unsere neue Website ist fast startklar';

test.describe('registered pages', () => {
  for (const path of ['/', '/ComingSoon']) {
    test(`${path} is readable: German heading and copy, hydrated`, async ({ session }) => {
      await session.goto(`${SITE}${path}`);
      const state = await until(
        () => mainState(session),
        (value) => value.hydrated,
        'hydration',
      );
      expect(state).toMatchObject({ lang: 'de', title: 'Bald verfügbar – Unsere neue Website', h1: HEADING });
      expect(state.text).toMatch(/freuen uns darauf, Ihnen schon bald unseren neuen digitalen\s+Auftritt/);
      expect(state.styled).toBe(true);
    });
  }
});

test.describe('missing pages', () => {
  test.use({ allowedProblems: expectedStatus(404) });

  test('an unknown path shows the Page Not Found screen naming the page, without the admin note', async ({
    session,
  }) => {
    await session.goto(`${SITE}/Preise`);
    // The shell names the page after hydration, from the address.
    const state = await until(
      () => mainState(session),
      (value) => value.text.includes('Preise'),
      'the page name',
    );
    expect(state.h1).toBe('Page Not Found');
    expect(state.text).toContain('The page “Preise” could not be found in this application.');
    expect(state.text).not.toContain('Admin Note');
  });
});

// [path as sent, what the browser shows]
const ODD_PATHS: Array<[string, 'page' | 'not-found']> = [
  ['//ComingSoon', 'page'],
  ['//evil.example/x', 'not-found'],
  ['/%2F%2Fevil.example', 'not-found'],
  ['/%E0%A4%A', 'not-found'],
];

test.describe('crafted paths with a token in the address bar', () => {
  test.use({ allowedProblems: expectedStatus(404) });

  for (const [path, shows] of ODD_PATHS) {
    test(`${path} shows the ${shows === 'page' ? 'page' : '404 screen'}, token gone, nothing crashed`, async ({
      session,
    }) => {
      const token = await loginToken('coming-soon', 'user@example.com');
      await session.goto(`${SITE}${path}?access_token=${encodeURIComponent(token)}&keep=1`);
      await until(
        () => session.url(),
        (url) => !url.includes(token),
        'the token to leave the address bar',
      );
      const state = await until(
        () => mainState(session),
        (value) => value.hydrated,
        'hydration',
      );
      expect(state.h1).toBe(shows === 'page' ? HEADING : 'Page Not Found');
      expect(state.text).not.toContain("This page couldn't load");
      const url = new URL(await session.url());
      expect(url.origin).toBe(SITE);
      expect(url.searchParams.get('keep')).toBe('1');
      // The token went to the site's own storage, as the shell hands it to the platform client.
      expect(await session.evaluate(() => localStorage.getItem('base44_access_token'), [])).toBe(token);
    });
  }
});

test.describe('the checks themselves', () => {
  test.use({ allowedProblems: /script-src|cross-engine: boom/ });

  test('a CSP violation and an uncaught error on the page are reported by this engine', async ({ session }) => {
    await session.goto(`${SITE}/`);
    await until(
      () => mainState(session),
      (value) => value.hydrated,
      'hydration',
    );
    await session.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__ran = true;';
      document.head.append(script);
      setTimeout(() => {
        throw new Error('cross-engine: boom');
      });
    }, []);
    // The production policy refused the inline script, and the engine told us about both problems.
    expect(await session.evaluate(() => (window as unknown as { __ran?: boolean }).__ran ?? false, [])).toBe(false);
    const { messages } = await until(
      () => session.problems(),
      (found) => found.messages.some((text) => text.includes('cross-engine: boom')),
      'the uncaught error',
    );
    expect(messages.some((text) => text.startsWith('CSP violation: script-src'))).toBe(true);
  });
});
