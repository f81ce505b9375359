import { authStore, type AuthActions } from '@/lib/auth/auth-store';

const actions = (): AuthActions => ({ logout: jest.fn(), navigateToLogin: jest.fn(), checkAppState: jest.fn() });

beforeEach(() => authStore.reset());

describe('actions loaded on demand (a visitor without a token has no platform client)', () => {
  it('are not loaded until someone waits for them, then once per wait until they arrive', async () => {
    const load = jest.fn();
    authStore.provideActionsOnDemand(load);
    expect(load).not.toHaveBeenCalled();

    const first = authStore.whenActions();
    expect(load).toHaveBeenCalledTimes(1);
    // A load that failed (offline) is tried again by the next call.
    const second = authStore.whenActions();
    expect(load).toHaveBeenCalledTimes(2);

    const provided = actions();
    authStore.provideActions(provided);
    await expect(first).resolves.toBe(provided);
    await expect(second).resolves.toBe(provided);
    await expect(authStore.whenActions()).resolves.toBe(provided);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a call made before the runtime started is answered once it says how to load them', async () => {
    const waiting = authStore.whenActions();
    const provided = actions();
    const load = jest.fn(() => authStore.provideActions(provided));
    authStore.provideActionsOnDemand(load);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(waiting).resolves.toBe(provided);
  });
});
