import { act, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';

import { usePlatformQuery } from '@/lib/data/use-platform-query';

function Probe({ fetcher, name }: { fetcher: () => Promise<string>; name: string }) {
  // No throttling or deduping in tests, so a focus revalidation would show up as a second call.
  const { data, error } = usePlatformQuery(name, fetcher, {
    errorRetryInterval: 10,
    focusThrottleInterval: 0,
    dedupingInterval: 0,
  });
  return <p>{error ? `error: ${(error as Error).message}` : (data ?? 'loading')}</p>;
}

// A fresh cache per test, so one test's data never answers another's.
function renderFresh(ui: React.ReactElement) {
  return render(<SWRConfig value={{ provider: () => new Map() }}>{ui}</SWRConfig>);
}

describe('shared query config', () => {
  it('retries a failed query exactly once', async () => {
    const fetcher = jest.fn(async () => {
      throw new Error('Network failure');
    });
    renderFresh(<Probe fetcher={fetcher} name="retry-once" />);
    await screen.findByText('error: Network failure');
    // Give SWR time for any further retry it might (wrongly) schedule.
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('succeeds on the retry', async () => {
    let calls = 0;
    const fetcher = jest.fn(async () => {
      calls += 1;
      if (calls === 1) throw new Error('flaky');
      return 'loaded';
    });
    renderFresh(<Probe fetcher={fetcher} name="retry-succeeds" />);
    await screen.findByText('loaded');
  });

  it('does not refetch when the window regains focus', async () => {
    const fetcher = jest.fn(async () => 'data');
    renderFresh(<Probe fetcher={fetcher} name="focus" />);
    await screen.findByText('data');
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    await waitFor(() => expect(fetcher).toHaveBeenCalledTimes(1));
  });
});
