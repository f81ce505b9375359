/**
 * What a visitor sees, read in one script so every engine answers the same question the same way.
 */
import { AUTH_MARKS } from '../../lib/auth/auth-flow';
import { until } from './driver/aim';
import type { EngineSession, Where } from './driver/session';

export const SITE = 'http://127.0.0.1:3000';

export interface MainState {
  title: string;
  lang: string;
  h1: string;
  text: string;
  /** React attached itself to the heading: the page's scripts (allowed by their CSP hashes) ran. */
  hydrated: boolean;
  /** The site's stylesheet applies (its preflight drops the browser's default 8px body margin). */
  styled: boolean;
}

function readMainState(): MainState {
  const h1 = document.querySelector('h1');
  return {
    title: document.title,
    lang: document.documentElement.lang,
    h1: h1?.textContent?.trim() ?? '',
    text: document.body.innerText,
    hydrated: h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber')),
    styled: getComputedStyle(document.body).marginTop === '0px',
  };
}

export function mainState(session: EngineSession): Promise<MainState> {
  return session.evaluate(readMainState, []);
}

/**
 * Waits until the auth gate has the platform's answer (the auth flow's `auth:gate-resolved` mark).
 * Until then the gate lays its loading screen over the page whenever the answer takes longer than
 * SPINNER_DELAY_MS (components/shell/Gate.tsx): a slow platform, or a busy machine that loads the
 * shell's chunk late. A visitor waits for it to go; a test that clicks or hovers meanwhile hits the
 * spinner, not the page (the frame editor selected its `<span>`, Go Home took no click).
 */
export function gateResolved(session: EngineSession, where?: Where): Promise<boolean> {
  return until(
    () =>
      session.evaluate((mark: string) => performance.getEntriesByName(mark).length > 0, [AUTH_MARKS.resolved], where),
    (resolved) => resolved,
    "the platform's answer to the auth gate",
  );
}
