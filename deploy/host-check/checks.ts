/**
 * `npm run check:host -- <url>`: what a deployed copy of the site keeps and loses on its host. Each
 * check reads real answers of the live site: its main page, an unknown path, one hashed asset and
 * the redirects of a page's other addresses. A check marked `protection` is one README "Deploy"
 * promises; losing one makes the run fail. The others (the status of an unknown path, asset caching)
 * are reported but vary by host by design.
 */
import { directivesOf, firstStaticAsset, metaContentSecurityPolicy, metaReferrerPolicy } from './html';
import { fetchHomePage, follow, redirectTarget, request, type Answer, type FollowedAnswer } from './http';

export const CHECKS = {
  'unknown-path': { label: 'Unknown path', protection: false },
  csp: { label: 'Content-Security-Policy', protection: true },
  'frame-ancestors': { label: 'frame-ancestors', protection: true },
  'referrer-policy': { label: 'Referrer-Policy', protection: true },
  'permissions-policy': { label: 'Permissions-Policy', protection: true },
  nosniff: { label: 'X-Content-Type-Options', protection: true },
  coop: { label: 'Cross-Origin-Opener-Policy', protection: true },
  cors: { label: 'Access-Control-Allow-Origin', protection: true },
  'static-caching': { label: 'Caching of /_next/static', protection: false },
  'redirect-query': { label: 'Redirects keep the query', protection: true },
} as const;

export type CheckId = keyof typeof CHECKS;

export interface CheckResult {
  id: CheckId;
  label: string;
  protection: boolean;
  kept: boolean;
  /** What the site answered, in a few words. */
  found: string;
}

export interface HostReport {
  /** The main page's address after any redirect. */
  url: string;
  results: CheckResult[];
  /** Protections README "Deploy" promises that this site lacks. */
  missing: CheckId[];
}

/** The addresses whose redirects are checked for the query (pages' other spellings). */
const REDIRECT_PROBES = ['/index.html', '/ComingSoon/', '/ComingSoon.html'];
const QUERY_MARK = 'check-host=1';
/** Referrer policies that never put a path (or a `?access_token=`) into a Referer. */
const SAFE_REFERRER_POLICIES = new Set(['no-referrer', 'origin', 'strict-origin']);

interface Facts {
  home: FollowedAnswer;
  missing: FollowedAnswer;
  asset: Answer | null;
  redirects: Answer[];
}

type Evaluation = Pick<CheckResult, 'kept' | 'found'>;

function isStrictPolicy(policy: string): boolean {
  const directives = directivesOf(policy);
  const scripts = directives.get('script-src') ?? directives.get('default-src') ?? ['*'];
  return (
    !scripts.includes("'unsafe-inline'") && !scripts.includes('*') && directives.get('object-src')?.[0] === "'none'"
  );
}

function checkUnknownPath({ missing }: Facts): Evaluation {
  if (missing.status === 404) return { kept: true, found: '404' };
  if (missing.status === 200)
    return { kept: false, found: '200: a page, not a 404 (the page must say noindex itself)' };
  return { kept: false, found: String(missing.status) };
}

function checkCsp({ home }: Facts): Evaluation {
  const header = home.headers.get('content-security-policy');
  const meta = metaContentSecurityPolicy(home.body);
  const sources = [header && 'header', meta && '<meta>'].filter(Boolean).join(' and ');
  if (!header && !meta) return { kept: false, found: 'none' };
  const strict = [header, meta].filter((policy): policy is string => policy !== null).some(isStrictPolicy);
  return { kept: strict, found: strict ? `from the ${sources}` : `from the ${sources}, but not strict` };
}

function checkFrameAncestors({ home }: Facts): Evaluation {
  const header = home.headers.get('content-security-policy');
  const sources = header ? directivesOf(header).get('frame-ancestors') : undefined;
  if (sources) return { kept: !sources.includes('*'), found: sources.join(' ') };
  return { kept: false, found: 'not enforced (no policy header; a <meta> policy cannot carry it)' };
}

function checkReferrerPolicy({ home }: Facts): Evaluation {
  const header = home.headers.get('referrer-policy')?.trim().toLowerCase() ?? null;
  const meta = metaReferrerPolicy(home.body);
  // A later policy replaces an earlier one: the meta (read after the header) is what applies.
  const effective = meta ?? header;
  const where = [header && 'header', meta && '<meta>'].filter(Boolean).join(' and ');
  if (!effective) return { kept: false, found: 'none (browsers send the full address to the same origin)' };
  return { kept: SAFE_REFERRER_POLICIES.has(effective), found: `${effective} (${where})` };
}

function checkHeader(name: string, accept: (value: string) => boolean) {
  return ({ home }: Facts): Evaluation => {
    const value = home.headers.get(name);
    if (value === null) return { kept: false, found: 'not sent' };
    return { kept: accept(value.trim().toLowerCase()), found: value.length > 60 ? `${value.slice(0, 57)}...` : value };
  };
}

function checkCors({ home }: Facts): Evaluation {
  const value = home.headers.get('access-control-allow-origin');
  return value === null
    ? { kept: true, found: 'not sent' }
    : { kept: false, found: `${value} (other sites may read the pages)` };
}

function checkStaticCaching({ asset }: Facts): Evaluation {
  if (!asset) return { kept: false, found: 'no /_next/static file in the main page' };
  const value = asset.headers.get('cache-control');
  const maxAge = Number(/max-age=(\d+)/.exec(value ?? '')?.[1] ?? 0);
  const kept = asset.status === 200 && (/\bimmutable\b/.test(value ?? '') || maxAge >= 31_536_000);
  return { kept, found: asset.status === 200 ? (value ?? 'no Cache-Control') : `${asset.status}` };
}

function checkRedirectQuery({ redirects }: Facts): Evaluation {
  const redirecting = redirects.filter((answer) => redirectTarget(answer) !== null);
  if (redirecting.length === 0) return { kept: true, found: 'no redirects (every address served as it is)' };
  const dropped = redirecting.filter((answer) => !(redirectTarget(answer) ?? '').includes(QUERY_MARK));
  const shown = (dropped[0] ?? redirecting[0]) as Answer;
  const from = new URL(shown.url);
  const found = `${shown.status} ${from.pathname}${from.search} -> ${shown.headers.get('location') ?? ''}`;
  return { kept: dropped.length === 0, found };
}

const EVALUATIONS: Record<CheckId, (facts: Facts) => Evaluation> = {
  'unknown-path': checkUnknownPath,
  csp: checkCsp,
  'frame-ancestors': checkFrameAncestors,
  'referrer-policy': checkReferrerPolicy,
  'permissions-policy': checkHeader('permissions-policy', (value) => value.includes('=()')),
  nosniff: checkHeader('x-content-type-options', (value) => value === 'nosniff'),
  coop: checkHeader('cross-origin-opener-policy', (value) => value === 'same-origin'),
  cors: checkCors,
  'static-caching': checkStaticCaching,
  'redirect-query': checkRedirectQuery,
};

async function gatherFacts(url: string): Promise<Facts> {
  const home = await fetchHomePage(url);
  const origin = new URL(home.url).origin;
  const missing = await follow(`${origin}/check-host-${Date.now().toString(36)}-missing`);
  const assetPath = firstStaticAsset(home.body);
  const asset = assetPath ? await request(new URL(assetPath, home.url).href) : null;
  const redirects: Answer[] = [];
  for (const path of REDIRECT_PROBES) redirects.push(await request(`${origin}${path}?${QUERY_MARK}`));
  return { home, missing, asset, redirects };
}

/** Checks the site at `url`; throws a HostCheckError when it cannot be checked at all. */
export async function checkHost(url: string): Promise<HostReport> {
  const facts = await gatherFacts(url);
  const results = (Object.keys(CHECKS) as CheckId[]).map((id) => ({
    id,
    ...CHECKS[id],
    ...EVALUATIONS[id](facts),
  }));
  const missing = results.filter((result) => result.protection && !result.kept).map((result) => result.id);
  return { url: facts.home.url, results, missing };
}
