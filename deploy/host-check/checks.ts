/**
 * `npm run check:host -- <url>`: what a deployed copy of the site keeps and loses on its host, judged
 * as a browser and a crawler would meet it: facts.ts makes the requests, the *-checks.ts files judge
 * them, catalog.ts lists the checks.
 */
import { pageNames as registryPageNames } from '../../lib/site/page-names';
import { CHECKS, type CheckId, type CheckResult } from './catalog';
import { gatherFacts, visitsOf, type Evaluation, type Facts } from './facts';
import { HEADER_CHECKS } from './header-checks';
import { chainText, DEFAULT_LIMITS, shown, type Answer, type Limits } from './http';
import { checkHtmlCaching, checkLocalBuild, checkPages, checkSoft404, checkUnknownPath } from './page-checks';
import { checkRedirectEnd, checkRedirectQuery, checkTokenOrigin } from './redirect-checks';

export type { CheckId, CheckResult, HostCheckId } from './catalog';
export { CHECKS, HOST_CHECK_IDS } from './catalog';

export interface HostReport {
  /** The address given. */
  requested: string;
  /** The main page's address after any redirect. */
  url: string;
  results: CheckResult[];
  /** Protections docs/DEPLOY.md promises that this site lacks. */
  missing: CheckId[];
  /** What the check did that the rows do not show: redirects followed to another origin, answers cut short. */
  notes: string[];
}

const EVALUATIONS: Record<CheckId, (facts: Facts) => Evaluation> = {
  pages: checkPages,
  'unknown-path': checkUnknownPath,
  'soft-404': checkSoft404,
  ...HEADER_CHECKS,
  'html-caching': checkHtmlCaching,
  'redirect-query': checkRedirectQuery,
  'redirect-end': checkRedirectEnd,
  'token-origin': checkTokenOrigin,
  'local-build': checkLocalBuild,
};

function cutNote(answer: Answer, origin: string, limits: Limits): string | null {
  const where = shown(answer.url, origin);
  switch (answer.cut) {
    case 'size':
      return `${where}: read only its first ${limits.bodyBytes} bytes (the answer goes on)`;
    case 'time':
      return `${where}: read for ${limits.timeoutMs / 1000} s only (the answer kept coming)`;
    case 'connection':
      return `${where}: the connection broke before the answer ended`;
    default:
      return null;
  }
}

function notesOf(facts: Facts, limits: Limits): string[] {
  const { origin, home } = facts;
  const notes: string[] = [];
  if (home.redirects.some((answer) => new URL(answer.url).origin !== origin)) {
    notes.push(
      `the address given redirects to another origin, which was checked: ${chainText({ redirects: home.redirects, end: { kind: 'answer', answer: home.answer } })}`,
    );
  }
  const deployed = facts.pageNames.filter((name) => !(registryPageNames as readonly string[]).includes(name));
  if (deployed.length > 0)
    notes.push(`the deployed build has pages this checkout does not: ${deployed.join(', ')} (checked too)`);
  const answers = [
    home.answer,
    ...visitsOf(facts).flatMap((visit) => [...visit.chain.redirects, ...(visit.answer ? [visit.answer] : [])]),
    ...(facts.asset ? [facts.asset] : []),
    facts.localBuildMarker,
    ...facts.probes.flatMap((chain) => [
      ...chain.redirects,
      ...(chain.end.kind === 'answer' ? [chain.end.answer] : []),
    ]),
  ];
  for (const answer of answers) {
    const note = cutNote(answer, origin, limits);
    if (note !== null && !notes.includes(note)) notes.push(note);
  }
  return notes;
}

export interface CheckOptions {
  /** Tighter or looser bounds than DEFAULT_LIMITS (tests use short ones). */
  limits?: Partial<Limits>;
}

/** Checks the site at `url`; throws a HostCheckError when it cannot be checked at all. */
export async function checkHost(url: string, options: CheckOptions = {}): Promise<HostReport> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const facts = await gatherFacts(url, limits);
  const results = (Object.keys(CHECKS) as CheckId[]).map((id) => ({ id, ...CHECKS[id], ...EVALUATIONS[id](facts) }));
  const missing = results.filter((result) => result.protection && !result.kept).map((result) => result.id);
  return { requested: url, url: facts.home.answer.url, results, missing, notes: notesOf(facts, limits) };
}
