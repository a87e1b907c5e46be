/**
 * The answers of the page's first reads, which the build's early-reads script started while the page's code was on
 * its way (early-reads-script.ts, the paths the server named: EARLY_READS of the domain's routes.ts; issue 31,
 * phones). `send` (api.ts) takes the answer when the page asks for its path, once, and asks the server itself for
 * any other.
 */
export function takePageRead(path: string): Promise<Response> | undefined {
  const reads = window.portalEarlyReads;
  const answer = reads?.get(path);
  reads?.delete(path);
  return answer;
}
