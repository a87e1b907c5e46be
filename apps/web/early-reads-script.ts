import type { Plugin } from 'vite';
import { CSRF_HEADER_NAME } from '../../packages/domain/src/initial-data';
import { EARLY_READS_ELEMENT_ID } from '../../packages/domain/src/routes';
import { classicScript } from './classic-script';

/**
 * Starts the page's first reads, which the server named in the page it rendered (EARLY_READS of the domain's
 * routes.ts, a JSON list of paths), and leaves their answers in `window.portalEarlyReads` for the page's calls to take
 * (src/app/early-reads.ts). It runs in the page as a classic script of its own, its source this function's: started
 * by the entry script, as before, a read went out only once the entry (90 KB and more on the wire) and its imports had
 * arrived, and on Lighthouse's simulated phone only after the whole evaluation of the entry (issue 31, phones).
 * Self-contained, as its source is all the page gets (the build calls it with the element's id and the default CSRF
 * header name); its calls carry the headers of the app's own (initial-data.ts's callHeaders).
 */
export function startEarlyReads(elementId: string, csrfHeaderName: string): void {
  const list = document.getElementById(elementId);
  if (!list?.textContent) return;
  const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
  const headers = { Accept: 'application/json', [meta('_csrf_header') || csrfHeaderName]: meta('_csrf') };
  const reads = new Map<string, Promise<Response>>();
  for (const path of JSON.parse(list.textContent) as string[]) {
    const answer = fetch(path, { method: 'GET', headers, credentials: 'same-origin' });
    // A failure is the page's to report, when it takes the answer; until then it must not be an unhandled rejection.
    answer.catch(() => undefined);
    reads.set(path, answer);
  }
  window.portalEarlyReads = reads;
}

declare global {
  interface Window {
    /** The answers of the page's first reads, by path, until the page takes them (src/app/early-reads.ts). */
    portalEarlyReads?: Map<string, Promise<Response>>;
  }
}

/**
 * The build's early-reads script: at the end of the body, so it runs only once the server's list and the CSRF token
 * in the head are parsed (the browser's preload scanner still asks for it with the first requests); asynchronous, it
 * waits for neither the module scripts nor the style sheet.
 */
export function earlyReadsScript(): Plugin {
  const source = `(${startEarlyReads.toString()})(${JSON.stringify(EARLY_READS_ELEMENT_ID)}, ${JSON.stringify(CSRF_HEADER_NAME)});\n`;
  return classicScript('early-reads', source, 'body');
}
