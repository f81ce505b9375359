import { act, render } from '@testing-library/react';

import ShellRuntime from '@/components/shell/ShellRuntime';
import { createAuthFlow } from '@/lib/auth/auth-flow';
import { authStore } from '@/lib/auth/auth-store';

jest.mock('next/navigation', () => ({ usePathname: () => '/' }));
jest.mock('@/lib/shell/platform', () => ({ getPlatformClient: () => ({}) }));
jest.mock('@/lib/auth/auth-flow', () => {
  const flow = { checkAppState: jest.fn(() => Promise.resolve()), logout: jest.fn(), navigateToLogin: jest.fn() };
  return { createAuthFlow: jest.fn(() => flow) };
});

describe('ShellRuntime', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('makes the client in one task and asks the platform in the next, once per page load', async () => {
    const { unmount } = render(<ShellRuntime />);
    const flow = jest.mocked(createAuthFlow).mock.results[0]?.value as { checkAppState: jest.Mock };
    expect(createAuthFlow).toHaveBeenCalledTimes(1);
    await expect(authStore.whenActions()).resolves.toBe(flow);
    expect(flow.checkAppState).not.toHaveBeenCalled();

    await act(async () => {
      jest.advanceTimersByTime(0);
      await Promise.resolve();
    });
    expect(flow.checkAppState).toHaveBeenCalledTimes(1);

    unmount();
    render(<ShellRuntime />);
    await act(async () => {
      jest.advanceTimersByTime(10);
      await Promise.resolve();
    });
    expect(createAuthFlow).toHaveBeenCalledTimes(1);
    expect(flow.checkAppState).toHaveBeenCalledTimes(1);
  });
});
