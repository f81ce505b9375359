import {
  clearLoginRedirectNote,
  isLoginRedirectLooping,
  LOOP_WINDOW_MS,
  noteLoginRedirect,
} from '@/lib/auth/login-loop-guard';

describe('login loop guard', () => {
  beforeEach(() => sessionStorage.clear());

  it('allows the first redirect', () => {
    expect(isLoginRedirectLooping()).toBe(false);
  });

  it('holds back a second automatic redirect inside the window', () => {
    noteLoginRedirect(1_000_000);
    expect(isLoginRedirectLooping(1_000_000 + 5_000)).toBe(true);
    expect(isLoginRedirectLooping(1_000_000 + LOOP_WINDOW_MS)).toBe(false);
  });

  it('is cleared by a successful sign-in', () => {
    noteLoginRedirect();
    clearLoginRedirectNote();
    expect(isLoginRedirectLooping()).toBe(false);
  });

  it('ignores garbage in storage', () => {
    sessionStorage.setItem('coming-soon.login-redirect-at', 'not-a-number');
    expect(isLoginRedirectLooping()).toBe(false);
  });
});
