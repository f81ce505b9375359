/** The small arithmetic and notation of the benchmarks' figures: medians, ratios, signed differences. */

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `value` as a multiple of `reference`: 1 when both are 0, Infinity when only the reference is. */
export function ratioTo(value: number, reference: number): number {
  if (reference > 0) return value / reference;
  return value > 0 ? Number.POSITIVE_INFINITY : 1;
}

/** `+12`, `−0.03`, `±0`: a difference with its sign always shown, to `digits` decimals. */
export function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return `±${text}`;
  return `${value > 0 ? '+' : '−'}${text}`;
}
