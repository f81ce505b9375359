/**
 * mulberry32: a small, fast generator giving the same sequence for the same seed everywhere, for
 * benchmarks that must write the same data every run and property tests whose failures name a seed
 * to replay.
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  /** The next 32-bit unsigned integer of the sequence. */
  const uint = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
  const next = () => uint() / 4294967296;
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { uint, next, int, pick, chance: (p: number) => next() < p };
}

export type SeededRandom = ReturnType<typeof seededRandom>;
