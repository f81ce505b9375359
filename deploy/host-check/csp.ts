/**
 * Content-Security-Policy judged as a browser enforces it. Google's CSP Evaluator (`csp_evaluator`)
 * parses each policy (case, first of a repeated directive wins), computes what a CSP3 browser
 * ignores (`'unsafe-inline'` beside a hash, nonce or `'strict-dynamic'`; hosts and schemes beside
 * `'strict-dynamic'`) and finds the weaknesses (`'unsafe-inline'`, `*`, `https:`/`http:`/`data:`,
 * hosts known to serve JSONP or AngularJS, `'unsafe-eval'`). What it does not do is done here:
 * - several policies (a header may carry a comma-separated list, a page adds its `<meta>` ones): a
 *   browser enforces every one, so a way in is open only when every policy leaves it open;
 * - the ways a script can come in, each through its own directive and fallback: `<script>` elements
 *   and `javascript:` URLs (script-src-elem), event-handler attributes (script-src-attr), string
 *   compilation (script-src) and plugins (object-src); `blob:` and `filesystem:` script sources;
 * - whether a page's own inline scripts are allowed (their SHA-2 digests against the hash sources);
 * - frame-ancestors (only from a header) and X-Frame-Options, which applies where no header policy
 *   has frame-ancestors.
 * Workers are not judged: creating one takes a script that already runs.
 */
import { createHash } from 'node:crypto';
import {
  checkPlainUrlSchemes,
  checkScriptAllowlistBypass,
  checkScriptUnsafeEval,
  checkScriptUnsafeInline,
  checkWildcards,
} from 'csp_evaluator/dist/checks/security_checks';
import { Keyword, Version, type Csp } from 'csp_evaluator/dist/csp';
import { Severity, Type, type Finding } from 'csp_evaluator/dist/finding';
import { CspParser } from 'csp_evaluator/dist/parser';
import { getSchemeFreeUrl } from 'csp_evaluator/dist/utils';

import type { InlineScript } from './html';

export type PolicySource = 'header' | '<meta>';

export interface Policy {
  text: string;
  from: PolicySource;
}

/** A way scripts can come in that a policy leaves open, and the directive that leaves it open. */
export interface Opening {
  way: 'script elements' | 'event handlers' | 'string compilation' | 'plugins';
  why: string;
}

/** The policies of a Content-Security-Policy header value (a comma separates policies). */
export function headerPolicies(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((policy) => policy.trim())
    .filter((policy) => /\S/.test(policy.replace(/;/g, '')));
}

function parsed(policy: string): Csp {
  return new CspParser(policy).csp;
}

/** The sources of one directive of a policy (as a browser reads it: the first of a repeated one). */
export function directiveSources(policy: string, directive: string): string[] {
  return parsed(policy).directives[directive] ?? [];
}

/** Script sources that let a page load scripts from anywhere an attacker can put one. */
const UNSAFE_SCRIPT_SCHEMES = ['blob:', 'filesystem:'];

/** The first serious weakness the evaluator found in `directive`, in a few words; null when none. */
function describe(directive: string, findings: Finding[]): string | null {
  const finding = findings.find(
    (candidate) => candidate.directive === directive && candidate.severity === Severity.HIGH,
  );
  if (!finding) return null;
  if (finding.type === Type.SCRIPT_ALLOWLIST_BYPASS) {
    return `${directive} allows ${finding.value ?? ''}, which serves JSONP or AngularJS`;
  }
  return finding.value ? `${directive} allows ${finding.value}` : `${directive}: ${finding.description}`;
}

function elementOpening(effective: Csp): string | null {
  const directive = effective.getEffectiveDirective('script-src-elem');
  const values = effective.directives[directive];
  if (!values) return 'no script-src or default-src';
  const scheme = values.find((value) => UNSAFE_SCRIPT_SCHEMES.includes(value));
  if (scheme) return `${directive} allows ${scheme}`;
  const findings = [checkScriptUnsafeInline, checkWildcards, checkPlainUrlSchemes, checkScriptAllowlistBypass].flatMap(
    (check) => check(effective),
  );
  return describe(directive, findings);
}

function attributeOpening(effective: Csp): string | null {
  const directive = effective.getEffectiveDirective('script-src-attr');
  if (!effective.directives[directive]) return 'no script-src or default-src';
  return describe(directive, checkScriptUnsafeInline(effective));
}

function evalOpening(effective: Csp): string | null {
  const directive = effective.getEffectiveDirective('script-src');
  if (!effective.directives[directive]) return 'no script-src or default-src';
  const finding = checkScriptUnsafeEval(effective).find((candidate) => candidate.directive === directive);
  return finding ? `${directive} allows ${Keyword.UNSAFE_EVAL}` : null;
}

function pluginOpening(effective: Csp): string | null {
  const directive = effective.getEffectiveDirective('object-src');
  const values = effective.directives[directive];
  if (values && (values.length === 0 || (values.length === 1 && values[0] === Keyword.NONE))) return null;
  return values ? `${directive} is not 'none'` : 'no object-src or default-src';
}

/** The ways in that one policy leaves open. */
export function openingsOf(policy: string): Opening[] {
  const effective = parsed(policy).getEffectiveCsp(Version.CSP3);
  const openings: Array<[Opening['way'], string | null]> = [
    ['script elements', elementOpening(effective)],
    ['event handlers', attributeOpening(effective)],
    ['string compilation', evalOpening(effective)],
    ['plugins', pluginOpening(effective)],
  ];
  return openings.flatMap(([way, why]) => (why === null ? [] : [{ way, why }]));
}

/**
 * The ways in that stay open under all `policies` together (each open in every one), with the
 * reasons the first policy gives; every way when there is no policy.
 */
export function openWays(policies: Policy[]): Array<Opening & { from: PolicySource }> {
  if (policies.length === 0) return [{ way: 'script elements', why: 'no policy', from: 'header' }];
  const perPolicy = policies.map((policy) => ({ from: policy.from, openings: openingsOf(policy.text) }));
  const [first, ...others] = perPolicy;
  return (first?.openings ?? [])
    .filter((opening) => others.every((other) => other.openings.some((candidate) => candidate.way === opening.way)))
    .map((opening) => ({ ...opening, from: first?.from ?? 'header' }));
}

const HASH_SOURCE = /^'(sha256|sha384|sha512)-([A-Za-z0-9+/_-]+={0,2})'$/i;
const NONCE_SOURCE = /^'nonce-([A-Za-z0-9+/_-]+={0,2})'$/;

function digestOf(algorithm: string, text: string): string {
  return createHash(algorithm.toLowerCase()).update(text, 'utf8').digest('base64');
}

/** Whether one policy lets an inline `<script>` with this text (and nonce) run (CSP3, "inline check"). */
export function allowsInlineScript(policy: string, script: InlineScript): boolean {
  const csp = parsed(policy);
  const values = csp.directives[csp.getEffectiveDirective('script-src-elem')];
  if (!values) return true;
  let restricted = false;
  for (const value of values) {
    const nonce = NONCE_SOURCE.exec(value);
    const hash = HASH_SOURCE.exec(value);
    if (nonce && script.nonce !== null && nonce[1] === script.nonce) return true;
    if (hash?.[1] && hash[2]) {
      const listed = hash[2].replace(/-/g, '+').replace(/_/g, '/');
      if (digestOf(hash[1], script.text) === listed) return true;
    }
    restricted ||= nonce !== null || hash !== null || value === Keyword.STRICT_DYNAMIC;
  }
  return !restricted && values.includes(Keyword.UNSAFE_INLINE);
}

/** The source of a frame-ancestors list that lets sites nobody named frame the page, or null. */
function framingOpening(sources: string[]): string | null {
  const open = sources.find((source) => {
    const host = getSchemeFreeUrl(source);
    return /^[a-z][a-z0-9+.-]*:$/i.test(source) || host === '*' || /^\*[:/]/.test(host);
  });
  return open === undefined ? null : `frame-ancestors ${open}`;
}

export interface FramingVerdict {
  kept: boolean;
  found: string;
}

/** X-Frame-Options as HTML reads it: DENY or SAMEORIGIN alone, or conflicting values (which block). */
function xFrameOptionsBlocks(value: string | null): boolean {
  const values = new Set(
    (value ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean),
  );
  if (values.size > 1) return ['deny', 'sameorigin', 'allowall'].some((item) => values.has(item));
  return values.has('deny') || values.has('sameorigin');
}

/**
 * Who may frame the page: the frame-ancestors of the header policies (a browser ignores it in
 * `<meta>`), refused when any policy refuses it; X-Frame-Options only where no header policy has
 * frame-ancestors (HTML's "check a navigation response's adherence to X-Frame-Options").
 */
export function judgeFraming(
  headerValue: string | null,
  xFrameOptions: string | null,
  metaPolicies: string[],
): FramingVerdict {
  const lists = headerPolicies(headerValue)
    .map((policy) => parsed(policy).directives['frame-ancestors'])
    .filter((sources): sources is string[] => sources !== undefined);
  const restricting = lists.find((sources) => framingOpening(sources) === null);
  if (restricting) return { kept: true, found: restricting.length > 0 ? restricting.join(' ') : "'none'" };
  const [open] = lists;
  if (open) return { kept: false, found: `${framingOpening(open) ?? ''} (any such site may frame the pages)` };
  if (xFrameOptionsBlocks(xFrameOptions)) return { kept: true, found: `X-Frame-Options: ${xFrameOptions ?? ''}` };
  const inMeta = metaPolicies.some((policy) => parsed(policy).directives['frame-ancestors'] !== undefined);
  return {
    kept: false,
    found: inMeta
      ? 'not enforced (only in <meta>, where browsers ignore it)'
      : 'not enforced (no policy header; a <meta> policy cannot carry it)',
  };
}
