/**
 * The verdicts about redirects, from the probes (each other spelling of each page's address, with
 * a login token in the query) and every address the check followed: a redirect keeps the query
 * (or the token is lost and the visitor is logged out), never carries the token to another origin,
 * and ends (a loop is its own verdict: the page is unreachable at that address).
 */
import { TOKEN_PARAMETER, TOKEN_VALUE, visitsOf, type Evaluation, type Facts } from './facts';
import { redirectTarget, shown, type Answer, type Chain } from './http';
import { chainFailure } from './page-checks';

interface Hop {
  answer: Answer;
  /** The resolved Location. */
  target: string;
}

function hopsOf(chain: Chain): Hop[] {
  return chain.redirects.map((answer) => ({ answer, target: redirectTarget(answer) ?? answer.url }));
}

function hopText({ answer }: Hop, origin: string): string {
  return `${answer.status} ${shown(answer.url, origin)} -> ${answer.headers.get('location') ?? ''}`;
}

function keepsQuery(target: string): boolean {
  return new URL(target).searchParams.get(TOKEN_PARAMETER) === TOKEN_VALUE;
}

export function checkRedirectQuery({ probes, origin }: Facts): Evaluation {
  const hops = probes.flatMap(hopsOf);
  if (hops.length === 0) return { kept: true, found: 'no redirects (every address served as it is)' };
  const dropped = hops.find((hop) => !keepsQuery(hop.target));
  return { kept: dropped === undefined, found: hopText(dropped ?? (hops[0] as Hop), origin) };
}

export function checkRedirectEnd(facts: Facts): Evaluation {
  const { probes, origin } = facts;
  const chains = [...visitsOf(facts).map((visit) => visit.chain), ...probes];
  const endless = chains.find((chain) => chain.end.kind === 'loop' || chain.end.kind === 'too-long');
  if (endless) return { kept: false, found: chainFailure(endless, origin) };
  return { kept: true, found: 'no loops' };
}

export function checkTokenOrigin({ probes, origin }: Facts): Evaluation {
  const leaving = probes.flatMap(hopsOf).filter((hop) => new URL(hop.target).origin !== origin);
  const carrying = leaving.find((hop) => hop.target.includes(TOKEN_VALUE));
  if (carrying) {
    return {
      kept: false,
      found: `${hopText(carrying, origin)} (the token goes to ${new URL(carrying.target).origin})`,
    };
  }
  if (leaving.length === 0) return { kept: true, found: 'no redirect leaves the site' };
  return { kept: true, found: `${hopText(leaving[0] as Hop, origin)} (without the token)` };
}
