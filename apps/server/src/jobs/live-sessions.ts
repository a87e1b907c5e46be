import type { LiveChannel } from '../features/live/channel.js';
import type { Job } from './runner.js';

/**
 * The sessions of the browsers connected to this instance's live channel, re-checked every sessionRecheckMs: a
 * browser that only listens sends no frames, so a session that ended (signed out, user deleted, customer
 * suspended) is cut off within that time. Each instance checks its own connections.
 */
export function liveSessionsJob(deps: { live: Pick<LiveChannel, 'recheckSessions' | 'options'> }): Job<void> {
  return {
    name: 'live-sessions',
    everyMs: deps.live.options.sessionRecheckMs,
    timeoutMs: 30_000,
    run: () => deps.live.recheckSessions(),
  };
}
