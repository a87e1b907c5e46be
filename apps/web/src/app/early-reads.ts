import { matchPage, type PageKey } from '@portal/domain';
import { callHeaders, readInitialData } from './initial-data';

/**
 * A page's first reads, started by the entry script while the page's own code is still on its way (issue 31, phones):
 * on a slow network the task page asked for its task only after its chunks had arrived and rendered, one round
 * trip more before anything showed, and for its storage only after the render with its task, one more. The task
 * page's first calls are JSON GETs of the page's own path and of its `/storage` below it (the route table's
 * `tasks.*.detail` and `tasks.*.storage`; early-reads.test.ts checks they are the same), so the entry starts them
 * without the route table (which is not among the first page's scripts); `send` (api.ts) takes an answer when the
 * page asks for that path, once, and asks the server itself for any other.
 */
const READS_BELOW_THEIR_PATH: Partial<Record<PageKey, readonly string[]>> = {
  customerTask: ['', '/storage'],
  resellerTask: ['', '/storage'],
  providerTask: ['', '/storage'],
};

const started = new Map<string, Promise<Response>>();

/** Starts the first reads of the page at `pathname` when it is a page read below its own path and a user is signed in. */
export function startPageRead(pathname: string): void {
  const page = matchPage(pathname);
  const reads = page && READS_BELOW_THEIR_PATH[page];
  if (!reads || !readInitialData().user) return;
  for (const below of reads) {
    const path = `${pathname}${below}`;
    const answer = fetch(path, { method: 'GET', headers: callHeaders(), credentials: 'same-origin' });
    // A failure is the page's to report, when it takes the answer; until then it must not be an unhandled rejection.
    answer.catch(() => undefined);
    started.set(path, answer);
  }
}

/** The answer of a read started for this path, once; undefined when none was started (or it was taken). */
export function takePageRead(path: string): Promise<Response> | undefined {
  const answer = started.get(path);
  started.delete(path);
  return answer;
}
