/**
 * The verdicts about the protections each page is served with: its Content-Security-Policy (header
 * and `<meta>` together, csp.ts), who may frame it, its referrer policy, Permissions-Policy,
 * `nosniff`, COOP and CORS; and the caching of hashed assets. Each is judged on every page of the
 * build that answered with HTML; one page without it is enough to lose it.
 */
import { headerPolicies, judgeFraming, openWays, type Policy } from './csp';
import type { Evaluation, Facts, Visit } from './facts';
import { readPage, type PageReading } from './html';
import type { Answer } from './http';

interface ServedPage {
  path: string;
  answer: Answer;
  reading: PageReading;
}

type PageJudge = (page: ServedPage) => Evaluation;

/** The pages that answered with HTML (the main page when none did, as it did to get this far). */
function servedPages({ pages, home }: Facts): ServedPage[] {
  const served = pages.filter((page): page is Visit & ServedPage => page.answer !== null && page.reading !== null);
  if (served.length > 0) return served;
  const { answer } = home;
  return [{ path: new URL(answer.url).pathname, answer, reading: readPage(answer.body) }];
}

/**
 * A judge applied to every page: the first page that loses it names the verdict, with its path when
 * the pages differ.
 */
function onEveryPage(judge: PageJudge): (facts: Facts) => Evaluation {
  return (facts) => {
    const verdicts = servedPages(facts).map((page) => ({ path: page.path, ...judge(page) }));
    const lost = verdicts.find((verdict) => !verdict.kept);
    if (!lost) return { kept: true, found: verdicts[0]?.found ?? '' };
    const same = verdicts.every((verdict) => verdict.found === lost.found);
    return { kept: false, found: same ? lost.found : `${lost.path}: ${lost.found}` };
  };
}

function checkCsp({ answer, reading }: ServedPage): Evaluation {
  const policies: Policy[] = [
    ...headerPolicies(answer.headers.get('content-security-policy')).map((text) => ({ text, from: 'header' as const })),
    ...reading.metaPolicies.map((text) => ({ text, from: '<meta>' as const })),
  ];
  const ignored = reading.ignoredPolicies[0];
  const note = ignored ? ` (a <meta> policy ${ignored.reason} counts for nothing)` : '';
  if (policies.length === 0) return { kept: false, found: `none${note}` };
  const sources = [...new Set(policies.map((policy) => policy.from))].join(' and ');
  const open = openWays(policies);
  if (open.length === 0) return { kept: true, found: `from the ${sources}${note}` };
  const reasons = [...new Set(open.map((way) => way.why))];
  return { kept: false, found: `from the ${sources}, not strict: ${reasons.join('; ')}${note}` };
}

function checkFrameAncestors({ answer, reading }: ServedPage): Evaluation {
  return judgeFraming(
    answer.headers.get('content-security-policy'),
    answer.headers.get('x-frame-options'),
    reading.metaPolicies,
  );
}

/** Policies that never put a path (or a `?access_token=`) into a Referer. */
const SAFE_REFERRER_POLICIES = new Set(['no-referrer', 'origin', 'strict-origin']);
const REFERRER_POLICIES = new Set([
  ...SAFE_REFERRER_POLICIES,
  'no-referrer-when-downgrade',
  'same-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]);
/** The legacy values `<meta name="referrer">` still accepts (HTML). */
const LEGACY_META_VALUES: Record<string, string> = {
  never: 'no-referrer',
  default: 'strict-origin-when-cross-origin',
  always: 'unsafe-url',
  'origin-when-crossorigin': 'origin-when-cross-origin',
};

/** The header's policy: the last token a browser knows wins (Referrer Policy, "parse a header"). */
function headerReferrerPolicy(value: string | null): string | null {
  const known = (value ?? '')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => REFERRER_POLICIES.has(token));
  return known.at(-1) ?? null;
}

function metaReferrerPolicy(value: string): string | null {
  const lower = value.trim().toLowerCase();
  const policy = LEGACY_META_VALUES[lower] ?? lower;
  return REFERRER_POLICIES.has(policy) ? policy : null;
}

/**
 * The policy in force when the page makes its first request (the header's, replaced by each
 * `<meta>` met before it; the browser default without either), then each `<meta>` met later, which
 * governs the requests after it. All must be safe: the token is in the address until a script runs.
 */
function checkReferrerPolicy({ answer, reading }: ServedPage): Evaluation {
  const header = headerReferrerPolicy(answer.headers.get('referrer-policy'));
  const metas = reading.referrerMetas.map((meta) => ({ ...meta, policy: metaReferrerPolicy(meta.value) }));
  const early = metas.filter((meta) => meta.beforeFirstRequest && meta.policy !== null).at(-1)?.policy ?? null;
  const first = early ?? header;
  const where = [header && 'header', early && '<meta>'].filter(Boolean).join(' and ');
  if (first === null) return { kept: false, found: 'none (browsers send the full address to the same origin)' };
  if (!SAFE_REFERRER_POLICIES.has(first)) return { kept: false, found: `${first} (${where})` };
  const later = metas.find(
    (meta) => !meta.beforeFirstRequest && meta.policy !== null && !SAFE_REFERRER_POLICIES.has(meta.policy),
  );
  if (later) return { kept: false, found: `${first} (${where}), then ${later.value} (a later <meta>)` };
  const invalid = metas.find((meta) => meta.policy === null);
  return { kept: true, found: `${first} (${where})${invalid ? `; <meta> value ignored: ${invalid.value}` : ''}` };
}

function headerCheck(name: string, accept: (value: string) => boolean): PageJudge {
  return ({ answer }) => {
    const value = answer.headers.get(name);
    if (value === null) return { kept: false, found: 'not sent' };
    return { kept: accept(value.trim().toLowerCase()), found: value.length > 60 ? `${value.slice(0, 57)}...` : value };
  };
}

function checkCors({ answer }: ServedPage): Evaluation {
  const value = answer.headers.get('access-control-allow-origin');
  return value === null
    ? { kept: true, found: 'not sent' }
    : { kept: false, found: `${value} (other sites may read the pages)` };
}

function checkStaticCaching({ asset }: Facts): Evaluation {
  if (!asset) return { kept: false, found: 'no /_next/static file in the pages' };
  const value = asset.headers.get('cache-control');
  const maxAge = Number(/max-age=(\d+)/.exec(value ?? '')?.[1] ?? 0);
  const kept = asset.status === 200 && (/\bimmutable\b/.test(value ?? '') || maxAge >= 31_536_000);
  return { kept, found: asset.status === 200 ? (value ?? 'no Cache-Control') : `${asset.status}` };
}

export const HEADER_CHECKS = {
  csp: onEveryPage(checkCsp),
  'frame-ancestors': onEveryPage(checkFrameAncestors),
  'referrer-policy': onEveryPage(checkReferrerPolicy),
  'permissions-policy': onEveryPage(headerCheck('permissions-policy', (value) => value.includes('=()'))),
  nosniff: onEveryPage(headerCheck('x-content-type-options', (value) => value === 'nosniff')),
  coop: onEveryPage(headerCheck('cross-origin-opener-policy', (value) => value === 'same-origin')),
  cors: onEveryPage(checkCors),
  'static-caching': checkStaticCaching,
} as const;
