/**
 * The parent-frame bridge: the one place where messages cross between the site and the editor.
 *
 * Loaded only when the site runs in a frame (components/shell/FrameBridgeLoader.tsx), so ordinary
 * visitors never download it. Every incoming message must pass three checks, in this order:
 *   1. `event.source === window.parent`: the sender is the window that frames us, not a sibling
 *      frame, a popup, an extension or the page itself;
 *   2. `event.origin` equals the pinned parent origin exactly (or, before one is pinned, is on the
 *      build's allowlist, and is then pinned), see origin-policy.ts;
 *   3. the message parses as one of the editor's messages (messages/incoming.ts).
 * Anything else is dropped and counted, and, in development, the first drop of each kind is logged.
 * Outgoing messages go to the pinned origin only, never `*`: a page that frames us without being
 * the editor gets nothing.
 */
import { isDevelopmentBuild } from '@/lib/config/env';

import { forwardUncaughtErrors } from './error-forwarder';
import { releaseFrameGuard } from './frame-guard';
import { agentReady, appChangedUrl, appError, parseIncomingMessage, type OutgoingMessage } from './messages';
import { watchMountState } from './mount-signal';
import { watchUrlChanges } from './navigation';
import {
  decideParentOrigin,
  fontOriginsFromEnvironment,
  policyFromEnvironment,
  type OriginPolicy,
  type ParentHints,
} from './origin-policy';
import { createVisualEditAgent, type VisualEditAgent } from './visual-edit/agent';

export type RejectionReason = 'source' | 'origin' | 'shape' | 'handler';

/** Messages posted before the parent origin is known wait here; the oldest go first when full. */
export const MAX_QUEUED_MESSAGES = 50;

export interface BridgeOptions {
  /** The framed window; the current one by default (tests pass an iframe's window). */
  win?: Window;
  /** The origin policy; the build's NEXT_PUBLIC_EDITOR_ORIGINS (plus loopback in dev) by default. */
  policy?: OriginPolicy;
  /** Whether to log the first drop of each kind to the console; on in development. */
  logDrops?: boolean;
  /** Origins editor font previews may load from; the build's NEXT_PUBLIC_EDITOR_FONT_ORIGINS by default. */
  fontOrigins?: readonly string[];
  /** Injected in tests: how the agent loads Tailwind's browser build. */
  loadTailwind?: (doc: Document) => Promise<void>;
  /** Injected in tests: what the page knows about its parent (jsdom has no ancestorOrigins). */
  hints?: ParentHints;
  /** Injected in tests: what `refresh-page` does (jsdom cannot reload). */
  reload?: () => void;
}

export interface Bridge {
  /** The origin we talk to, or null while unknown or refused. */
  readonly parentOrigin: string | null;
  /** Why the bridge is inactive, when it is. */
  readonly refusedOrigin: string | null;
  /** How many incoming messages were dropped, by reason. */
  readonly dropped: Readonly<Record<RejectionReason, number>>;
  readonly agent: VisualEditAgent | null;
  stop(): void;
}

let running: Bridge | null = null;

function parentHints(win: Window): ParentHints {
  let ancestorOrigin: string | null = null;
  try {
    ancestorOrigin = win.location.ancestorOrigins?.[0] ?? null;
  } catch {
    ancestorOrigin = null;
  }
  return { ancestorOrigin, referrer: win.document.referrer, selfOrigin: win.location.origin };
}

/**
 * The way out to the editor: posts go to the pinned parent origin only; until one is pinned they
 * wait (the newest MAX_QUEUED_MESSAGES), and pinning sends them in order.
 */
function createParentChannel(
  win: Window,
  pinned: string | null,
  warn: (text: string, detail?: unknown) => void,
): { readonly origin: string | null; post(message: OutgoingMessage): void; pin(origin: string): void; clear(): void } {
  let parentOrigin = pinned;
  const queue: OutgoingMessage[] = [];
  const deliver = (message: OutgoingMessage, origin: string) => {
    try {
      win.parent.postMessage(message, origin);
    } catch (failure) {
      warn('could not post to the editor', failure);
    }
  };
  return {
    get origin() {
      return parentOrigin;
    },
    post(message) {
      if (parentOrigin !== null) {
        deliver(message, parentOrigin);
        return;
      }
      queue.push(message);
      if (queue.length > MAX_QUEUED_MESSAGES) queue.shift();
    },
    pin(origin) {
      parentOrigin = origin;
      for (const message of queue.splice(0)) deliver(message, origin);
    },
    clear: () => void queue.splice(0),
  };
}

/** Counts dropped messages by reason; the first drop of each reason is also logged. */
function createDropCounter(warn: (text: string, detail?: unknown) => void): {
  dropped: Record<RejectionReason, number>;
  drop(reason: RejectionReason, detail: unknown): void;
} {
  const dropped: Record<RejectionReason, number> = { source: 0, origin: 0, shape: 0, handler: 0 };
  const logged = new Set<RejectionReason>();
  return {
    dropped,
    drop(reason, detail) {
      dropped[reason] += 1;
      if (logged.has(reason)) return;
      logged.add(reason);
      warn(`dropped a message (${reason}); further drops of this kind are only counted`, detail);
    },
  };
}

/**
 * Starts the bridge (once per page: a second call returns the running one). Does nothing when the
 * window is not framed or its parent's origin is known and not allowed.
 */
export function startBridge(options: BridgeOptions = {}): Bridge {
  if (running) return running;
  const win = options.win ?? window;
  const { policy, rejected } = options.policy ? { policy: options.policy, rejected: [] } : policyFromEnvironment();
  const logDrops = options.logDrops ?? isDevelopmentBuild();
  const warn = (text: string, detail?: unknown) => {
    if (logDrops) console.warn(`[frame] ${text}`, ...(detail === undefined ? [] : [detail]));
  };
  for (const { entry, reason } of rejected) {
    warn(`ignoring NEXT_PUBLIC_EDITOR_ORIGINS entry "${entry}": ${reason}`);
  }
  const { dropped, drop } = createDropCounter(warn);

  const framed = win.parent !== win;
  const decision = framed ? decideParentOrigin(policy, options.hints ?? parentHints(win)) : null;
  if (!framed || decision?.kind === 'refused') {
    if (decision?.kind === 'refused')
      warn(`parent origin ${decision.origin} is not an allowed editor; bridge stays off`);
    return inactiveBridge(decision?.kind === 'refused' ? decision.origin : null, dropped);
  }

  const channel = createParentChannel(win, decision?.kind === 'pinned' ? decision.origin : null, warn);
  const post = (message: OutgoingMessage) => channel.post(message);

  const agent = createVisualEditAgent({
    win,
    post,
    fontOrigins: options.fontOrigins ?? fontOriginsFromEnvironment(),
    loadTailwind: options.loadTailwind,
    reload: options.reload,
    onProblem: (problem, cause) => warn(problem, cause),
  });

  const onMessage = (event: MessageEvent) => {
    // 1. Only the window that frames us. Comparing window proxies is safe across origins.
    if (event.source !== win.parent) return drop('source', event.origin);
    // 2. Exactly the pinned origin; before pinning, an allowed one, which is then pinned for good.
    const parentOrigin = channel.origin;
    if (parentOrigin !== null ? event.origin !== parentOrigin : !policy.isAllowed(event.origin)) {
      return drop('origin', event.origin);
    }
    // 3. Exactly one of the editor's messages, copied field by field.
    const message = parseIncomingMessage(event.data);
    if (message === null) return drop('shape', event.data);
    if (parentOrigin === null) channel.pin(event.origin);
    // A valid message from the allowlisted parent proves who frames us where the engine could not
    // tell before the first paint (Firefox): the page's controls work again (frame-guard.ts).
    releaseFrameGuard(win);
    try {
      agent.handle(message);
    } catch (failure) {
      // A bug in a handler must not surface as an uncaught error in the app (and be forwarded).
      drop('handler', failure);
    }
  };
  win.addEventListener('message', onMessage);

  const stopErrors = forwardUncaughtErrors(win, { send: (error) => post(appError(error)) });
  post(agentReady());
  const stopMountState = watchMountState(win, post);
  const stopUrls = watchUrlChanges(win, (url) => post(appChangedUrl(url)));

  const bridge: Bridge = {
    get parentOrigin() {
      return channel.origin;
    },
    refusedOrigin: null,
    dropped,
    agent,
    stop() {
      win.removeEventListener('message', onMessage);
      stopErrors();
      stopUrls();
      stopMountState();
      agent.stop();
      channel.clear();
      if (running === bridge) running = null;
    },
  };
  running = bridge;
  return bridge;
}

function inactiveBridge(refusedOrigin: string | null, dropped: Record<RejectionReason, number>): Bridge {
  return { parentOrigin: null, refusedOrigin, dropped, agent: null, stop: () => undefined };
}
