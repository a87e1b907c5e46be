/**
 * Agent handshakes one instance carries out at once (LiveChannelOptions.maxAgentHandshakes, AGENT_HANDSHAKES_MAX).
 * A handshake (upgrade, CONNECT, the hello's task list and repository) is its share of two batched statements (the
 * presence marks and the hellos of the moment) on a pool of ten; a few dozen in flight keep the pool's queue short, so
 * a sign-in or a page waits little behind a reconnecting fleet. Kept apart from channel.ts so that the configuration reads it without loading the channel.
 */
export const AGENT_HANDSHAKES_DEFAULT = 32;
