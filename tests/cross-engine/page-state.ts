/**
 * What a visitor sees, read in one script so every engine answers the same question the same way.
 */
import type { EngineSession } from './driver/session';

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
