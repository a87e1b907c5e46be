import { afterEach } from 'vitest';
import { stompClient, type TestStomp } from '../features/live/testing.js';
import { SESSION_COOKIE } from '../http/request-context.js';
import type { TestClient } from './client.js';

/** Where a test file keeps the live clients its tests start: each is stopped after its test, so none outlives it. */
export function useStartedStompClients(): TestStomp[] {
  const started: TestStomp[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((c) => c.stop()));
  });
  return started;
}

/** The cookie header of the client's session, as its browser sends it with the live channel's upgrade. */
export const sessionCookieOf = (client: TestClient) => `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}`;

/** A browser's live connection at `url` with the client's session, from the test app's own origin (PUBLIC_URL). */
export const browserStomp = (client: TestClient, url: string): TestStomp =>
  stompClient(url, { headers: { cookie: sessionCookieOf(client), origin: 'http://portal.test' } });
