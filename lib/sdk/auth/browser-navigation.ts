/**
 * The few browser navigations the SDK performs, behind one object so tests in jsdom (which cannot
 * navigate) can observe them, and so every call site shares the same "is there a window" guard.
 */

export { hasWindow } from '../../util';

export const browserNavigation = {
  /**
   * Navigates the page by assigning `location.href`, as the reference does, so minimal window stubs
   * (tests, embedded runtimes) without `location.assign` work too.
   */
  assign(url: string): void {
    window.location.href = url;
  },
  reload(): void {
    window.location.reload();
  },
};
