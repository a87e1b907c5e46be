// Kept apart from agent-protocol.ts (zod schemas): the web app's first page uses these and must not load zod.

/**
 * The WebSocket close code a server instance ends every live connection with when it shuts down (RFC 6455
 * 1012 "service restart"): the peer reconnects at once, to this instance's successor or another one behind
 * the load balancer, after a short random wait so a fleet does not arrive in the same instant.
 */
export const SERVICE_RESTART_CLOSE = { code: 1012, reason: 'service restart', jitterMs: 2_000 } as const;

/** The wait before reconnecting after a SERVICE_RESTART_CLOSE: uniformly spread over its jitter. */
export function restartReconnectDelayMs(random: () => number = Math.random): number {
  return Math.round(SERVICE_RESTART_CLOSE.jitterMs * random());
}
