/**
 * What the page benchmarks compare, and how their runs are laid out. Three exports: ours, the empty
 * Next.js export as a host without our configuration serves it, and the empty export served with
 * our site-wide headers (tools/bench/side-by-side.ts serves them). Each is loaded from about:blank,
 * where Lighthouse starts; ours and the bare empty export also from a page of another site, where
 * a visitor comes from (a search result, a link, an address typed while on another site): there
 * the browser gives the page a renderer of its own whatever its headers say (docs/PERFORMANCE.md,
 * "Where a visitor comes from"). Lighthouse's runs and the throttled loads (observed-load.ts) both
 * take every page of them in turn.
 */

/** Where the exports are served while measuring: the origin of each. */
export interface ServedExports {
  ours: string;
  empty: string;
  emptySameHeaders: string;
  /** The origin of a page on another site (not the same site as the exports' origins). */
  elsewhere: string;
}

/** One page's results, one per export and start. */
export interface PerExport<T> {
  ours: T;
  empty: T;
  emptySameHeaders: T;
  /** Ours reached from the page of another site. */
  oursArriving: T;
  /** The bare empty export reached from the page of another site. */
  emptyArriving: T;
}

/** One measured load: a page of one export, from about:blank or from the page of another site. */
export interface MeasuredTarget {
  label: string;
  url: string;
  /** The page shown before `url`; about:blank when absent. */
  startFrom?: string;
}

interface Measured {
  key: keyof PerExport<unknown>;
  label: string;
  served: Exclude<keyof ServedExports, 'elsewhere'>;
  arriving: boolean;
}

const MEASURED: readonly Measured[] = [
  { key: 'ours', label: 'ours', served: 'ours', arriving: false },
  { key: 'empty', label: 'empty', served: 'empty', arriving: false },
  { key: 'emptySameHeaders', label: 'empty, our headers', served: 'emptySameHeaders', arriving: false },
  { key: 'oursArriving', label: 'ours from another site', served: 'ours', arriving: true },
  { key: 'emptyArriving', label: 'empty from another site', served: 'empty', arriving: true },
];

/**
 * Every page of every export and start, page by page: ours `/`, empty `/`, ..., ours `/a`, ...
 * Refuses a page "of another site" on an export's host: a site ignores the port, so the browser
 * would keep such a navigation in its renderer and the start would measure nothing of its own.
 */
export function exportTargets(served: ServedExports, pages: readonly string[]): MeasuredTarget[] {
  const elsewhere = new URL(served.elsewhere).hostname;
  const shared = MEASURED.find(({ served: which }) => new URL(served[which]).hostname === elsewhere);
  if (shared) throw new Error(`${served.elsewhere} is not another site: it shares its host with ${shared.label}`);
  return pages.flatMap((page) =>
    MEASURED.map(({ label, served: which, arriving }) => ({
      label: `${label} ${page}`,
      url: `${served[which]}${page}`,
      ...(arriving ? { startFrom: `${served.elsewhere}/` } : {}),
    })),
  );
}

/** The results of `exportTargets`' runs (in its order) regrouped by page. */
export function resultsByPage<T>(pages: readonly string[], results: readonly T[]): ({ page: string } & PerExport<T>)[] {
  return pages.map((page, index) => {
    const own = results.slice(MEASURED.length * index, MEASURED.length * (index + 1));
    const of = (key: keyof PerExport<unknown>): T => {
      const result = own[MEASURED.findIndex((measured) => measured.key === key)];
      if (result === undefined) throw new Error(`no results for ${page} from every export`);
      return result;
    };
    return {
      page,
      ours: of('ours'),
      empty: of('empty'),
      emptySameHeaders: of('emptySameHeaders'),
      oursArriving: of('oursArriving'),
      emptyArriving: of('emptyArriving'),
    };
  });
}
