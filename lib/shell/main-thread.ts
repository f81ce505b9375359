/**
 * Scheduling for the shell's start-up work, so that none of it lengthens the task that hydrates the
 * page and none of it runs as one long task (docs/PERFORMANCE.md, "Why the TBT was high"): a visitor
 * can scroll and tap between the steps, and Lighthouse's Total Blocking Time counts only what each
 * task runs beyond 50 ms.
 */

/** At the latest this long after hydration the runtime starts, even on a main thread never idle. */
export const RUNTIME_START_TIMEOUT_MS = 1000;

/**
 * Runs `task` once the browser has no more urgent work (rendering, input, the page's own scripts),
 * at the latest after `timeoutMs`. Browsers without `requestIdleCallback` (Safari) run it in a task
 * of its own. Returns a function that cancels it.
 */
export function whenIdle(task: () => void, timeoutMs = RUNTIME_START_TIMEOUT_MS): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => task(), { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 0);
  return () => window.clearTimeout(handle);
}

/** Resolves in a new task: what comes before and after it run as two tasks, with input and paint between. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
