import { matchPage, type PageKey } from '@portal/domain';
import { callHeaders, readInitialData } from './initial-data';

/**
 * A page's first read, started by the entry script while the page's own code is still on its way (issue 31, phones):
 * on a slow network the task page asked for its task only after its chunks had arrived and rendered, one round
 * trip more before anything showed. The task page's first call is a JSON GET of the page's own path (the route
 * table's `tasks.*.detail`; early-reads.test.ts checks they are the same), so the entry starts it without the route
 * table (which is not among the first page's scripts); `send` (api.ts) takes the answer when the page asks for that
 * path, once, and asks the server itself for any other.
 */
const READ_AT_THEIR_PATH: ReadonlySet<PageKey> = new Set(['customerTask', 'resellerTask', 'providerTask']);

const started = new Map<string, Promise<Response>>();

/** Starts the first read of the page at `pathname` when it is a page read at its own path and a user is signed in. */
export function startPageRead(pathname: string): void {
  const page = matchPage(pathname);
  if (!page || !READ_AT_THEIR_PATH.has(page) || !readInitialData().user) return;
  const answer = fetch(pathname, { method: 'GET', headers: callHeaders(), credentials: 'same-origin' });
  // A failure is the page's to report, when it takes the answer; until then it must not be an unhandled rejection.
  answer.catch(() => undefined);
  started.set(pathname, answer);
}

/** The answer of a read started for this path, once; undefined when none was started (or it was taken). */
export function takePageRead(path: string): Promise<Response> | undefined {
  const answer = started.get(path);
  started.delete(path);
  return answer;
}
