/** How long work put off until the browser is idle waits at most: a page that keeps it busy still gets it done. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Runs `run` once the browser is idle (within IDLE_TIMEOUT_MS); where there is no requestIdleCallback (Safari) in
 * the next task. Returns what cancels it.
 */
export function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const idle = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(idle);
  }
  const timer = window.setTimeout(run);
  return () => window.clearTimeout(timer);
}
