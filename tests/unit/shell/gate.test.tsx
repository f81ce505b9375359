import { act, render, screen } from '@testing-library/react';

import Gate, { SPINNER_DELAY_MS } from '@/components/shell/Gate';
import NotFoundRoute from '@/components/shell/NotFoundRoute';
import Toaster from '@/components/shell/Toaster';
import { authStore } from '@/lib/auth/auth-store';
import { createToastStore } from '@/lib/toast/store';

// The 404 screen's way home needs the app router, which only Next.js mounts.
jest.mock('next/navigation', () => ({ useRouter: () => ({ push: jest.fn() }) }));

const content = <p>Unsere neue Website ist fast startklar</p>;

beforeEach(() => {
  jest.useFakeTimers();
  authStore.reset();
});
afterEach(() => jest.useRealTimers());

describe('Gate', () => {
  it('keeps the prerendered content and shows no spinner when auth resolves quickly', () => {
    render(<Gate>{content}</Gate>);
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(SPINNER_DELAY_MS - 50));
    act(() => authStore.set({ state: { status: 'unauthenticated', settings: {} } }));
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
  });

  it('shows no spinner before the runtime asks the platform, however late it starts', () => {
    render(<Gate>{content}</Gate>);
    // The runtime starts once the browser is idle after hydration (up to a second on a busy phone).
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => authStore.set({ checking: true }));
    act(() => jest.advanceTimersByTime(SPINNER_DELAY_MS - 50));
    act(() => authStore.set({ state: { status: 'unauthenticated', settings: {} }, checking: false }));
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
  });

  it('covers the page with the loading screen when the platform takes longer than the delay', () => {
    render(<Gate>{content}</Gate>);
    act(() => authStore.set({ checking: true }));
    act(() => jest.advanceTimersByTime(SPINNER_DELAY_MS));
    expect(screen.getByRole('status', { name: 'Seite wird geladen' })).toBeInTheDocument();
    // The content stays mounted underneath, so nothing shifts when loading ends.
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
    act(() =>
      authStore.set({
        state: { status: 'authenticated', user: { id: '1', email: 'a@b.c', role: 'user' }, settings: {} },
      }),
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows Access Restricted for an unregistered user, never the page meanwhile', async () => {
    render(<Gate>{content}</Gate>);
    act(() =>
      authStore.set({
        state: { status: 'error', error: { type: 'user_not_registered', message: 'User not registered for this app' } },
      }),
    );
    // The screen's code loads on demand; until then the spinner stands in for it, not the page.
    expect(screen.queryByText(/fast startklar/)).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeInTheDocument();
    expect(screen.queryByText(/fast startklar/)).toBeNull();
  });

  it('shows a redirect notice while the login redirect is under way', () => {
    render(<Gate>{content}</Gate>);
    act(() =>
      authStore.set({
        state: { status: 'error', error: { type: 'auth_required', message: 'Authentication required' } },
      }),
    );
    expect(screen.getByRole('status', { name: 'Weiterleitung zur Anmeldung' })).toBeInTheDocument();
  });

  it('offers a sign-in button instead of looping when the redirect was held back', async () => {
    const navigateToLogin = jest.fn();
    authStore.provideActions({ navigateToLogin, logout: jest.fn(), checkAppState: jest.fn() });
    render(<Gate>{content}</Gate>);
    act(() =>
      authStore.set({
        state: { status: 'error', error: { type: 'auth_required', message: 'Authentication required' } },
        loginRedirectBlocked: true,
      }),
    );
    const signIn = await screen.findByRole('button', { name: 'Sign in' });
    await act(async () => signIn.click());
    expect(navigateToLogin).toHaveBeenCalledTimes(1);
  });

  it('renders the page for any other error (a failing backend never blanks the page)', () => {
    render(<Gate>{content}</Gate>);
    act(() => authStore.set({ state: { status: 'error', error: { type: 'other', message: 'Network failure' } } }));
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByText(/fast startklar/)).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('404 admin note', () => {
  it.each([
    [
      'an admin',
      { status: 'authenticated', user: { id: '1', email: 'admin@example.com', role: 'admin' }, settings: {} },
      true,
    ],
    [
      'a user',
      { status: 'authenticated', user: { id: '2', email: 'user@example.com', role: 'user' }, settings: {} },
      false,
    ],
    ['an anonymous visitor', { status: 'unauthenticated', settings: {} }, false],
  ] as const)('%s sees the note: %s', (_who, state, visible) => {
    render(<NotFoundRoute />);
    act(() => authStore.set({ state }));
    expect(screen.queryByRole('note') !== null).toBe(visible);
  });
});

describe('Toaster', () => {
  it('announces open toasts politely and closes them on request', () => {
    const store = createToastStore();
    render(<Toaster store={store} />);
    const region = screen.getByRole('region', { name: 'Benachrichtigungen' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    act(() => void store.add({ title: 'Gespeichert', description: 'Alles in Ordnung' }));
    expect(screen.getByRole('status')).toHaveTextContent('Gespeichert');
    act(() => screen.getByRole('button', { name: 'Benachrichtigung schließen' }).click());
    expect(screen.queryByRole('status')).toBeNull();
    expect(store.get()[0]?.open).toBe(false);
  });
});
