import { act, render } from '@testing-library/react';

import ShellRuntime from '@/components/shell/ShellRuntime';
import { createAuthFlow } from '@/lib/auth/auth-flow';
import { authStore } from '@/lib/auth/auth-store';

jest.mock('next/navigation', () => ({ usePathname: () => '/' }));
jest.mock('@/lib/shell/platform', () => ({ getPlatformClient: () => ({}) }));
jest.mock('@/lib/auth/auth-flow', () => {
  const flow = { checkAppState: jest.fn(() => Promise.resolve()), logout: jest.fn(), navigateToLogin: jest.fn() };
  return { createAuthFlow: jest.fn(() => flow), checkWithoutToken: jest.fn(() => Promise.resolve()) };
});

/** Runs what is queued as microtasks (a loaded chunk's promise), not what waits for a new task. */
async function flushMicrotasks(): Promise<void> {
  await act(async () => {
    for (let step = 0; step < 10; step += 1) await Promise.resolve();
  });
}

describe('ShellRuntime', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    window.localStorage.setItem('base44_access_token', 'live');
  });
  afterEach(() => {
    jest.useRealTimers();
    window.localStorage.clear();
  });

  it('with a token: loads the client, makes it and asks the platform in tasks of their own, once per page load', async () => {
    const { unmount } = render(<ShellRuntime />);
    await flushMicrotasks();
    expect(createAuthFlow).not.toHaveBeenCalled();

    await act(async () => {
      jest.advanceTimersByTime(0);
    });
    await flushMicrotasks();
    const flow = jest.mocked(createAuthFlow).mock.results[0]?.value as { checkAppState: jest.Mock };
    expect(createAuthFlow).toHaveBeenCalledTimes(1);
    await expect(authStore.whenActions()).resolves.toBe(flow);
    expect(flow.checkAppState).not.toHaveBeenCalled();

    await act(async () => {
      jest.advanceTimersByTime(0);
    });
    await flushMicrotasks();
    expect(flow.checkAppState).toHaveBeenCalledTimes(1);

    unmount();
    render(<ShellRuntime />);
    await act(async () => {
      jest.advanceTimersByTime(10);
    });
    await flushMicrotasks();
    expect(createAuthFlow).toHaveBeenCalledTimes(1);
    expect(flow.checkAppState).toHaveBeenCalledTimes(1);
  });
});
