/**
 * The three exports the page benchmarks compare, and how their runs are laid out: ours, the empty
 * Next.js export as a host without our configuration serves it, and the empty export served with
 * our site-wide headers (tools/bench/side-by-side.ts serves them). Lighthouse's runs and the
 * throttled loads (observed-load.ts) both take every page of the three in turn.
 */

/** Where the exports are served while measuring: the origin of each. */
export interface ServedExports {
  ours: string;
  empty: string;
  emptySameHeaders: string;
}

/** One page's results, one per export. */
export interface PerExport<T> {
  ours: T;
  empty: T;
  emptySameHeaders: T;
}

const EXPORT_LABELS: readonly [keyof ServedExports, string][] = [
  ['ours', 'ours'],
  ['empty', 'empty'],
  ['emptySameHeaders', 'empty, our headers'],
];

/** Every page of the three exports, page by page: ours `/`, empty `/`, empty with our headers `/`, ours ... */
export function exportTargets(served: ServedExports, pages: readonly string[]): { label: string; url: string }[] {
  return pages.flatMap((page) =>
    EXPORT_LABELS.map(([which, label]) => ({ label: `${label} ${page}`, url: `${served[which]}${page}` })),
  );
}

/** The results of `exportTargets`' runs (in its order) regrouped by page. */
export function resultsByPage<T>(pages: readonly string[], results: readonly T[]): ({ page: string } & PerExport<T>)[] {
  return pages.map((page, index) => {
    const [ours, empty, emptySameHeaders] = results.slice(EXPORT_LABELS.length * index);
    if (ours === undefined || empty === undefined || emptySameHeaders === undefined)
      throw new Error(`no results for ${page} from every export`);
    return { page, ours, empty, emptySameHeaders };
  });
}
