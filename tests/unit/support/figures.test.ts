import { median, ratioTo, signed } from '../../../support/figures';

describe('the figures of the benchmarks', () => {
  it('median: the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(/median of no values/);
  });

  it('ratioTo: a multiple of the reference, 1 when both are 0', () => {
    expect(ratioTo(330, 300)).toBeCloseTo(1.1);
    expect(ratioTo(0, 0)).toBe(1);
    expect(ratioTo(5, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('signed: the sign always shown, ± for what rounds to 0', () => {
    expect(signed(12.4, 0)).toBe('+12');
    expect(signed(-0.031, 2)).toBe('−0.03');
    expect(signed(-0.004, 2)).toBe('±0.00');
  });
});
