/**
 * The requests `check:host` makes, and what it reads from each answer: the main page, every page of
 * the build, an address that names no page, one hashed asset and a missing one beside it,
 * `/LOCAL-BUILD.txt`, and every other address of each page with a login token in its query
 * (`?access_token=…`, as a login redirect returns a visitor), each redirect followed on the site's
 * own origin only.
 */
import { pageNames as registryPageNames } from '../../lib/site/page-names';
import { readPage, type PageReading } from './html';
import { fetchHomePage, follow, request, type Answer, type Chain, type HomePage, type Limits } from './http';

/** The query the redirect probes carry: what a login redirect appends to the page's address. */
export const TOKEN_PARAMETER = 'access_token';
export const TOKEN_VALUE = 'check-host-token';

/** A page's address, asked for, and what answered in the end. */
export interface Visit {
  /** The path asked for (`/ComingSoon`). */
  path: string;
  chain: Chain;
  /** The final answer, when the chain ended at one. */
  answer: Answer | null;
  /** Its HTML as a browser reads it, when it is an HTML answer. */
  reading: PageReading | null;
}

export interface Facts {
  origin: string;
  home: HomePage;
  /** The page names checked: this checkout's registry and the deployed build's own list. */
  pageNames: string[];
  /** `/` first, then `/Name` for each page name. */
  pages: Visit[];
  /** An address that names no page. */
  missing: Visit;
  asset: Answer | null;
  /**
   * A file that does not exist beside the hashed asset: hosts that cache that folder for a year by
   * its path (not by what they answer) cache its 404 page too.
   */
  missingAsset: Visit | null;
  localBuildMarker: Answer;
  /** Each other spelling of each page's address, with the token query. */
  probes: Chain[];
}

/** Every address visited as a browser would (the pages, then the missing page and file). */
export function visitsOf({ pages, missing, missingAsset }: Facts): Visit[] {
  return [...pages, missing, ...(missingAsset ? [missingAsset] : [])];
}

export type Evaluation = { kept: boolean; found: string };

function isHtml(answer: Answer): boolean {
  return /^text\/html\b/i.test(answer.headers.get('content-type') ?? '');
}

async function visit(origin: string, path: string, limits: Limits): Promise<Visit> {
  const chain = await follow(`${origin}${path}`, limits);
  const answer = chain.end.kind === 'answer' ? chain.end.answer : null;
  return { path, chain, answer, reading: answer && isHtml(answer) ? readPage(answer.body) : null };
}

/** The addresses a host may answer for a page besides its own: each with the token query. */
function probePaths(pageNames: string[]): string[] {
  const query = `?${TOKEN_PARAMETER}=${TOKEN_VALUE}`;
  const spellings = ['/', '/index', '/index.html'];
  for (const name of pageNames.map(encodeURIComponent)) spellings.push(`/${name}`, `/${name}/`, `/${name}.html`);
  return spellings.map((path) => `${path}${query}`);
}

export async function gatherFacts(url: string, limits: Limits): Promise<Facts> {
  const home = await fetchHomePage(url, limits);
  const origin = new URL(home.answer.url).origin;
  const deployed = readPage(home.answer.body).earlyScript?.pageNames ?? [];
  const pageNames = [...new Set<string>([...registryPageNames, ...deployed])];
  const pages: Visit[] = [];
  for (const path of ['/', ...pageNames.map((name) => `/${encodeURIComponent(name)}`)]) {
    pages.push(await visit(origin, path, limits));
  }
  const stamp = `check-host-${Date.now().toString(36)}`;
  const missing = await visit(origin, `/${stamp}-no-such-page`, limits);
  const assetPath = pages.find((page) => page.reading?.staticAsset)?.reading?.staticAsset ?? null;
  const asset = assetPath ? await request(new URL(assetPath, origin).href, limits) : null;
  const missingAsset = assetPath
    ? await visit(origin, new URL(`${stamp}-no-such-file.js`, new URL(assetPath, origin)).pathname, limits)
    : null;
  const localBuildMarker = await request(`${origin}/LOCAL-BUILD.txt`, limits);
  const probes: Chain[] = [];
  for (const path of probePaths(pageNames)) probes.push(await follow(`${origin}${path}`, limits));
  return { origin, home, pageNames, pages, missing, asset, missingAsset, localBuildMarker, probes };
}
