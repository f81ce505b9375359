import {
  blockingTimeAfter,
  observedRows,
  type ObservedComparison,
  type ObservedResult,
} from '../../../support/observed-load';

describe('blockingTimeAfter', () => {
  it("counts each task's time beyond 50 ms", () => {
    expect(blockingTimeAfter([{ startMs: 1_000, durationMs: 120 }], 500)).toBe(70);
    expect(
      blockingTimeAfter(
        [
          { startMs: 1_000, durationMs: 120 },
          { startMs: 2_000, durationMs: 51 },
        ],
        500,
      ),
    ).toBe(71);
  });

  it('counts nothing of a task that ended before the first paint, nor one of 50 ms or less', () => {
    expect(blockingTimeAfter([{ startMs: 100, durationMs: 300 }], 500)).toBe(0);
    expect(blockingTimeAfter([{ startMs: 600, durationMs: 50 }], 500)).toBe(0);
  });

  it('counts only the part after the first paint of a task that straddles it', () => {
    expect(blockingTimeAfter([{ startMs: 400, durationMs: 200 }], 500)).toBe(50);
    expect(blockingTimeAfter([{ startMs: 400, durationMs: 140 }], 500)).toBe(0);
  });
});

describe('observedRows', () => {
  const result = (label: string, tbtMs: number, lcpMs: number): ObservedResult => {
    const figures = { fcpMs: 300, lcpMs, tbtMs, longestTaskMs: 200 };
    return { label, url: `http://127.0.0.1/${label}`, runs: [figures, figures], median: figures };
  };
  /** One page's loads: each export and start with its own blocking time and largest paint. */
  const comparisonOf = (page: string): ObservedComparison => ({
    page,
    ours: result('ours', 330, 900),
    empty: result('empty', 300, 400),
    emptySameHeaders: result('empty, our headers', 310, 650),
    oursArriving: result('ours from another site', 320, 880),
    emptyArriving: result('empty from another site', 300, 700),
    tbtRatio: 1.1,
    arrivingTbtRatio: 1.07,
  });

  it('gives ours and the empty export (bare and with our headers) per page, the TBT ratio and the LCP differences', () => {
    const [row] = observedRows([comparisonOf('/')]);
    expect(row?.[0]).toBe('Throttled loads /: ours / empty export / with our headers (median of 2)');
    expect(row?.[1]).toBe(
      'FCP 300 ms, LCP 900 ms, TBT 330 ms, longest task 200 ms / FCP 300 ms, LCP 400 ms, TBT 300 ms, longest task 200 ms / ' +
        'FCP 300 ms, LCP 650 ms, TBT 310 ms, longest task 200 ms',
    );
    expect(row?.[2]).toMatch(
      /^TBT ×1\.10, LCP \+500 ms \(with our headers: \+250 ms\); Chromium run at 4× CPU, 150 ms RTT, 1\.6 Mbit\/s/,
    );
  });

  it('gives ours and the empty export reached from a page of another site beside them', () => {
    const rows = observedRows([comparisonOf('/a')]);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual([
      '  the same from a page of another site: ours / empty export',
      'FCP 300 ms, LCP 880 ms, TBT 320 ms, longest task 200 ms / FCP 300 ms, LCP 700 ms, TBT 300 ms, longest task 200 ms',
      'TBT ×1.07, LCP +180 ms',
    ]);
  });
});
