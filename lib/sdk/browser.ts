/**
 * The few browser navigations the SDK performs, behind one object so tests in jsdom (which cannot
 * navigate) can observe them, and so every call site shares the same "is there a window" guard.
 */

export { hasWindow } from '../util';

export const browserNavigation = {
  /** Navigates the page; callers pass only vetted targets (same-origin, or the configured login page). */
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};
