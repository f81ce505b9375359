/**
 * Which parent pages may talk to the site, and which one we talk back to.
 *
 * The reference agent obeyed any page that framed it and posted to `*`, so any site could frame it,
 * drive it and read what it sent. Here every decision is an exact comparison with an allowlist that
 * is fixed at build time; each rule below says why it exists.
 */
import { isDevelopmentBuild, readBuildEnv } from '@/lib/config/env';
import { parseOriginList, type ParsedOriginList } from '@/lib/util';

export interface OriginPolicy {
  /** The configured editor origins, normalised (scheme://host[:port]). */
  readonly configured: readonly string[];
  /** Whether loopback origins on any port are allowed as well (development only). */
  readonly allowsLoopback: boolean;
  isAllowed(origin: string): boolean;
}

/** NEXT_PUBLIC_EDITOR_ORIGINS parsed by the one origin-list parser (lib/util/origin-list.ts). */
export type ParsedOrigins = ParsedOriginList;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** http(s)://localhost|127.0.0.1|[::1] on any port. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    // Compare the re-serialised origin as well, so "http://localhost:3000/x" is not taken as an origin.
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      LOOPBACK_HOSTS.has(url.hostname) &&
      url.origin === origin
    );
  } catch {
    return false;
  }
}

export function createOriginPolicy(configured: readonly string[], options: { allowLoopback: boolean }): OriginPolicy {
  const allowed = new Set(configured);
  return {
    configured: [...configured],
    allowsLoopback: options.allowLoopback,
    isAllowed(origin: string): boolean {
      // Exact string equality with a normalised origin: no prefix, suffix or subdomain matching, so
      // `https://editor.example.com.evil.test` or `https://evil-editor.example.com` never pass.
      if (allowed.has(origin)) return true;
      // In `next dev` the editor usually runs on this machine under some port; letting any loopback
      // page in is fine there (only local processes can serve one) and never happens in a build,
      // because `allowLoopback` is decided from NODE_ENV, which the build fixes to "production".
      return options.allowLoopback && isLoopbackOrigin(origin);
    },
  };
}

/** The policy of this build: its editor origins (NEXT_PUBLIC_EDITOR_ORIGINS), plus loopback in development. */
export function policyFromEnvironment(): { policy: OriginPolicy; rejected: ParsedOrigins['rejected'] } {
  // Both values are fixed at build time (lib/config/env.ts); nothing at run time can change them.
  const { origins, rejected } = parseOriginList(readBuildEnv().editorOrigins);
  const policy = createOriginPolicy(origins, { allowLoopback: isDevelopmentBuild() });
  return { policy, rejected };
}

/**
 * Origins the editor's font previews (inject-font-import, inject-font-face) may load from:
 * NEXT_PUBLIC_EDITOR_FONT_ORIGINS, which the build sets for editor preview builds only
 * (lib/config/env.ts variablesForBuild).
 */
export function fontOriginsFromEnvironment(): string[] {
  return parseOriginList(readBuildEnv().editorFontOrigins).origins;
}

/** What the framed document can tell about its parent without asking it. */
export interface ParentHints {
  /** `location.ancestorOrigins[0]` where the browser has it (Chromium, WebKit). */
  ancestorOrigin: string | null;
  /** `document.referrer`, the page that loaded this document (may be empty or our own page). */
  referrer: string;
  /** This document's own origin. */
  selfOrigin: string;
}

export type ParentOriginDecision =
  /** Talk to exactly this origin from now on. */
  | { kind: 'pinned'; origin: string }
  /** The parent is known and not allowed: the bridge stays silent and deaf. */
  | { kind: 'refused'; origin: string }
  /** Not known yet: pin the origin of the first valid message from the parent, if allowed. */
  | { kind: 'undetermined' };

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Decides which origin to post to before any message arrives.
 *
 * 1. `ancestorOrigins[0]` is set by the browser and cannot be forged by the parent, so when it
 *    exists it decides alone: allowed -> pin it; not allowed -> refuse (a hostile framer gets no
 *    messages at all, not even a failed post).
 * 2. Without it, `document.referrer` names the page that loaded us. When that is an allowed origin
 *    other than our own, pin it. Any other referrer proves nothing about the parent (we may have
 *    navigated ourselves, or come back from the platform's login page inside the frame), so it
 *    neither pins nor refuses.
 * 3. With no usable hint and exactly one configured origin, pin that one: if the parent is somebody
 *    else, the browser drops every post because the target origin does not match.
 * 4. Otherwise wait: the first message that comes from the parent window with an allowed origin
 *    pins that origin (the bridge queues what it wants to say until then).
 */
export function decideParentOrigin(policy: OriginPolicy, hints: ParentHints): ParentOriginDecision {
  const ancestor = hints.ancestorOrigin ? originOf(hints.ancestorOrigin) : null;
  if (ancestor)
    return policy.isAllowed(ancestor) ? { kind: 'pinned', origin: ancestor } : { kind: 'refused', origin: ancestor };

  const referrer = hints.referrer ? originOf(hints.referrer) : null;
  if (referrer && referrer !== hints.selfOrigin && policy.isAllowed(referrer))
    return { kind: 'pinned', origin: referrer };

  const [only, ...others] = policy.configured;
  if (only !== undefined && others.length === 0) return { kind: 'pinned', origin: only };
  return { kind: 'undetermined' };
}
