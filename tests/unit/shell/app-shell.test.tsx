import { act, render, screen } from '@testing-library/react';

import AppShell from '@/components/shell/AppShell';
import { authStore } from '@/lib/auth/auth-store';
import { nextTask, RUNTIME_START_TIMEOUT_MS, whenIdle } from '@/lib/shell/main-thread';

// The runtime needs the platform; what matters here is when AppShell mounts it.
jest.mock('@/components/shell/ShellRuntime', () => ({
  __esModule: true,
  default: function FakeRuntime() {
    return <p>runtime started</p>;
  },
}));

type IdleCallback = (deadline: IdleDeadline) => void;

function stubIdleCallbacks() {
  const pending: IdleCallback[] = [];
  const request = jest.fn((callback: IdleCallback, _options?: IdleRequestOptions) => pending.push(callback));
  const cancel = jest.fn();
  Object.assign(window, { requestIdleCallback: request, cancelIdleCallback: cancel });
  const runIdle = () => {
    for (const callback of pending.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
  };
  return { request, cancel, runIdle };
}

afterEach(() => {
  Reflect.deleteProperty(window, 'requestIdleCallback');
  Reflect.deleteProperty(window, 'cancelIdleCallback');
  authStore.reset();
});

describe('AppShell', () => {
  it('mounts the platform runtime only once the browser is idle after hydration', async () => {
    const idle = stubIdleCallbacks();
    render(
      <AppShell>
        <p>Unsere neue Website ist fast startklar</p>
      </AppShell>,
    );
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
    expect(screen.queryByText('runtime started')).toBeNull();
    expect(idle.request).toHaveBeenCalledWith(expect.any(Function), { timeout: RUNTIME_START_TIMEOUT_MS });

    act(() => idle.runIdle());
    expect(await screen.findByText('runtime started')).toBeInTheDocument();
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
  });

  it('cancels the pending start when it unmounts first', () => {
    const idle = stubIdleCallbacks();
    const { unmount } = render(<AppShell>{null}</AppShell>);
    unmount();
    expect(idle.cancel).toHaveBeenCalled();
  });
});

describe('whenIdle and nextTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs the task in a task of its own where requestIdleCallback is missing (Safari), and can cancel it', () => {
    const task = jest.fn();
    whenIdle(task);
    expect(task).not.toHaveBeenCalled();
    jest.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);

    const cancelled = jest.fn();
    whenIdle(cancelled)();
    jest.advanceTimersByTime(10);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('resolves nextTask only after the current task', async () => {
    const order: string[] = [];
    const done = nextTask().then(() => order.push('next task'));
    await Promise.resolve();
    order.push('this task');
    jest.advanceTimersByTime(0);
    await done;
    expect(order).toEqual(['this task', 'next task']);
  });
});
