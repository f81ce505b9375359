/**
 * Amounts counted per key in a Map, a key gone once its amount is back to 0 (so a map of callers
 * does not grow with everyone who ever came): sockets open per user, requests waiting per socket.
 */
export function addTo(counts: Map<string, number>, key: string, amount: number): void {
  counts.set(key, (counts.get(key) ?? 0) + amount);
}

export function takeFrom(counts: Map<string, number>, key: string, amount: number): void {
  const left = (counts.get(key) ?? amount) - amount;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/** Which ceiling an amount would pass, and the total it would bring that count to. */
export interface Overdraft {
  over: 'caller' | 'app';
  total: number;
}

/**
 * An amount counted against a caller in one app and against the app, each with its own ceiling:
 * the live rows of watches (live-query-budget.ts) and the bytes of waiting requests
 * (live-query-waiting.ts). The caller is the socket's owner (a user, the service role, or one
 * visitor's socket), counted per app.
 */
export class CallerAppTally {
  private readonly byCaller = new Map<string, number>();
  private readonly byApp = new Map<string, number>();

  constructor(
    readonly perCaller: number,
    readonly perApp: number,
  ) {}

  /** Counts `amount` in, or answers the ceiling it would pass (and counts nothing). */
  add(appId: string, owner: string, amount: number): Overdraft | undefined {
    const callerKey = `${appId}\u0000${owner}`;
    const callerTotal = (this.byCaller.get(callerKey) ?? 0) + amount;
    if (callerTotal > this.perCaller) return { over: 'caller', total: callerTotal };
    const appTotal = (this.byApp.get(appId) ?? 0) + amount;
    if (appTotal > this.perApp) return { over: 'app', total: appTotal };
    this.byCaller.set(callerKey, callerTotal);
    this.byApp.set(appId, appTotal);
    return undefined;
  }

  /** Gives back an amount that `add` counted. */
  release(appId: string, owner: string, amount: number): void {
    takeFrom(this.byCaller, `${appId}\u0000${owner}`, amount);
    takeFrom(this.byApp, appId, amount);
  }
}
