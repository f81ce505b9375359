/**
 * The verdicts about what a visitor and a crawler get at each address: every page of the build is
 * the page, an address that names no page shows the 404 screen and is not indexed, HTML is not
 * cached for long, and the build deployed is no local build.
 *
 * A page of the site is recognised by the markers every exported page carries (build-steps/export/
 * early-head.ts): the early script (lib/site/early-document.ts) and, in every page but the 404 page,
 * the static 404 screen as `<template data-missing-page>` before it. So an answer with both is one
 * of the site's pages (at an address that names no page, its early script shows the 404 screen
 * before the first paint), one with the early script alone is the site's 404 page, and one with
 * neither is something else: a directory listing, the host's own error page, another site's HTML.
 */
import { isExportedPagePath } from '../../lib/site/exported-paths';
import { allowsInlineScript, directiveSources, headerPolicies } from './csp';
import { visitsOf, type Evaluation, type Facts, type Visit } from './facts';
import { chainText, type Answer, type Chain } from './http';

/** HTML cached longer than this (or `immutable`) keeps visitors on an old deploy after a new one. */
export const LONG_HTML_CACHE_SECONDS = 3600;

/** What a chain that never reached an answer did, in a few words. */
export function chainFailure(chain: Chain, origin: string): string {
  const text = chainText(chain, origin);
  switch (chain.end.kind) {
    case 'loop':
      return `redirect loop: ${text}`;
    case 'too-long':
      return `more than ${chain.redirects.length} redirects: ${text}`;
    case 'other-origin':
      return `redirects to another origin (not followed): ${text}`;
    default:
      return text;
  }
}

type Kind = 'page' | '404 page' | 'other';

function kindOf(visit: Visit): Kind {
  const early = visit.reading?.earlyScript;
  if (!early) return 'other';
  return visit.reading?.missingTemplate ? 'page' : '404 page';
}

/** The inline scripts of the answer that the policies it is served with (header and `<meta>`) block. */
function blockedScripts(visit: Visit): number {
  if (!visit.answer || !visit.reading) return 0;
  const policies = [
    ...headerPolicies(visit.answer.headers.get('content-security-policy')),
    ...visit.reading.metaPolicies,
  ];
  return visit.reading.inlineScripts.filter((script) => !policies.every((policy) => allowsInlineScript(policy, script)))
    .length;
}

/** The answer's body in a few words, for an answer that is not one of the site's pages. */
function bodyText(answer: Answer, visit: Visit): string {
  const title = visit.reading?.title;
  if (answer.body.trim() === '') return 'an empty body';
  if (title) return `"${title}"`;
  return answer.headers.get('content-type') ?? 'no Content-Type';
}

function pageProblem(visit: Visit, origin: string): string | null {
  const { answer } = visit;
  if (!answer) return chainFailure(visit.chain, origin);
  const kind = kindOf(visit);
  if (answer.status !== 200)
    return `${answer.status} (${kind === 'other' ? bodyText(answer, visit) : `the site's ${kind}`})`;
  if (kind === 'other') return `200 ${bodyText(answer, visit)}, not a page of the site (a directory listing?)`;
  if (kind === '404 page') return "200 with the site's 404 page";
  const blocked = blockedScripts(visit);
  if (blocked > 0) return `the policy blocks ${blocked} of its inline scripts (headers of another build?)`;
  return null;
}

export function checkPages({ pages, origin }: Facts): Evaluation {
  for (const page of pages) {
    const problem = pageProblem(page, origin);
    if (problem !== null) return { kept: false, found: `${page.path}: ${problem}` };
  }
  const redirected = pages.filter((page) => page.chain.redirects.length > 0);
  const found = `${pages.map((page) => page.path).join(', ')}: the page`;
  if (redirected.length === 0) return { kept: true, found };
  return { kept: true, found: `${found} (${redirected.map((page) => chainText(page.chain, origin)).join('; ')})` };
}

/** Whether a visitor at an address that names no page sees the 404 screen. */
export function checkUnknownPath({ missing, origin, pageNames }: Facts): Evaluation {
  const { answer } = missing;
  if (!answer) return { kept: false, found: chainFailure(missing.chain, origin) };
  const kind = kindOf(missing);
  // Redirected to a page's address (the home page, say), the early script rightly shows that page.
  if (kind === 'page' && isExportedPagePath(new URL(answer.url).pathname, pageNames)) {
    return { kept: false, found: `${chainText(missing.chain, origin)}: a page's address, so no 404 screen` };
  }
  if (kind === '404 page') return { kept: true, found: `${answer.status}: the site's 404 page` };
  if (kind === 'page' && answer.status === 200) {
    return blockedScripts(missing) > 0
      ? { kept: false, found: '200: a page whose policy blocks its early script, so no 404 screen' }
      : { kept: true, found: '200: a page, whose early script shows the 404 screen' };
  }
  if (answer.status >= 400)
    return { kept: false, found: `${answer.status} with ${bodyText(answer, missing)}, not the 404 screen` };
  return { kept: false, found: `${answer.status} ${bodyText(answer, missing)} without the 404 screen` };
}

const NOINDEX = /(^|[\s,:])(noindex|none)([\s,]|$)/i;

/** Whether an address that names no page stays out of search engines: an error status, or `noindex`. */
export function checkSoft404({ missing }: Facts): Evaluation {
  const { answer, reading } = missing;
  if (!answer || answer.status < 200 || answer.status > 299)
    return { kept: true, found: answer ? String(answer.status) : 'no page' };
  const header = answer.headers.get('x-robots-tag');
  if (header !== null && NOINDEX.test(header))
    return { kept: true, found: `${answer.status} with noindex (X-Robots-Tag)` };
  if (reading?.robots.some((content) => NOINDEX.test(content)))
    return { kept: true, found: `${answer.status} with noindex (<meta>)` };
  const later = kindOf(missing) === 'page' ? '; the app adds noindex only once its scripts run' : '';
  return { kept: false, found: `${answer.status} without noindex: crawlers index it${later}` };
}

/** How long a browser may reuse an answer without asking again, in seconds (Infinity: immutable). */
function freshnessOf(answer: Answer): number {
  const cacheControl = (answer.headers.get('cache-control') ?? '').toLowerCase();
  if (/(^|,)\s*(no-store|no-cache)\b/.test(cacheControl)) return 0;
  if (/(^|,)\s*immutable\b/.test(cacheControl)) return Infinity;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)/.exec(cacheControl)?.[2];
  if (maxAge !== undefined) return Number(maxAge);
  const expires = Date.parse(answer.headers.get('expires') ?? '');
  const date = Date.parse(answer.headers.get('date') ?? '') || Date.now();
  return Number.isNaN(expires) ? 0 : Math.max(0, (expires - date) / 1000);
}

function cachingText(answer: Answer): string {
  return (
    answer.headers.get('cache-control') ??
    (answer.headers.get('expires') ? `Expires: ${answer.headers.get('expires') ?? ''}` : 'no Cache-Control')
  );
}

/**
 * Whether the HTML of the pages and of the 404 answers is revalidated (not kept for long). A missing
 * hashed file counts when the host answers it with HTML (its 404 page): kept for a year, that answer
 * outlives a deploy that brings the file back (a rollback), and the page that needs it stays broken.
 */
export function checkHtmlCaching(facts: Facts): Evaluation {
  const answers = visitsOf(facts).filter((visit) => visit.answer && visit.reading);
  const long = answers.find((visit) => visit.answer && freshnessOf(visit.answer) > LONG_HTML_CACHE_SECONDS);
  if (long?.answer) return { kept: false, found: `${long.path}: ${cachingText(long.answer)}` };
  const values = [...new Set(answers.map((visit) => (visit.answer ? cachingText(visit.answer) : '')))];
  return { kept: true, found: values.join(' / ') || 'no HTML answer' };
}

/** `LOCAL BUILD: …`, the first line of the marker a local build writes (build-steps/site/build-site.ts). */
const LOCAL_MARKER_START = 'LOCAL BUILD:';
const LOOPBACK = /^(https?|wss?):\/\/(localhost|127(\.\d+){3}|\[::1\])(:\d+)?$/i;

/** Whether the deployed build is a local one (made for the emulator on the machine that built it). */
export function checkLocalBuild({ localBuildMarker, pages }: Facts): Evaluation {
  if (localBuildMarker.status === 200 && localBuildMarker.body.startsWith(LOCAL_MARKER_START)) {
    return { kept: false, found: '/LOCAL-BUILD.txt answers 200: a build for the local emulator' };
  }
  for (const page of pages) {
    const policies = [
      ...headerPolicies(page.answer?.headers.get('content-security-policy') ?? null),
      ...(page.reading?.metaPolicies ?? []),
    ];
    const loopback = policies
      .flatMap((policy) => directiveSources(policy, 'connect-src'))
      .find((source) => LOOPBACK.test(source));
    if (loopback)
      return { kept: false, found: `${page.path}: connect-src names ${loopback}, a build for the local emulator` };
  }
  return {
    kept: true,
    found: `no local-build marker (/LOCAL-BUILD.txt: ${localBuildMarker.status}), no loopback platform`,
  };
}
