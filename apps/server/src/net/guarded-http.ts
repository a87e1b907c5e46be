import { type Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { OutboundGuard } from './outbound-guard.js';

/** One HTTP answer, its body read whole (bounded: an endpoint cannot fill the server's memory). */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * One HTTP(S) request to `base` (its protocol, host and port) through `agent`; no redirect is followed. It ends
 * when `signal` aborts (the one timeout idiom of outside services: a deadline as an AbortSignal.timeout).
 */
export function sendOnce(
  base: URL,
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string;
    agent: Agent;
    signal: AbortSignal;
  },
): Promise<HttpAnswer> {
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || undefined,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent: request.agent,
        signal: request.signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) req.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Why a redirect was not followed. */
export class RedirectRefused extends Error {
  constructor(readonly reason: 'tooMany' | 'crossOriginBody' | 'notHttp') {
    super(`redirect not followed (${reason})`);
    this.name = 'RedirectRefused';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 3;

/**
 * A request to an address a tenant or admin set, through the outbound guard: every hop's host is checked
 * (after resolution, and again by the guard's agents on the address connected to), redirects are followed by
 * hand, at most MAX_REDIRECTS of them. A redirect keeps the method and body only on 307/308 and only to the
 * same origin (the body carries credentials, which must not travel to a host nobody configured); 301/302/303
 * become a GET without body, as browsers do.
 */
export async function guardedRequest(
  guard: OutboundGuard,
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
): Promise<HttpAnswer> {
  let target = url;
  let method = init.method;
  let body = init.body;
  // Each call on a connection of its own: a kept one the server closes at its idle timeout (Node's and many
  // others' 5 s) can be picked up just as it closes, and the call then fails as unreachable.
  let headers: Record<string, string> = { ...init.headers, connection: 'close' };
  await guard.check(target.hostname);
  for (let hop = 0; ; hop++) {
    const answer = await sendOnce(target, {
      method,
      path: `${target.pathname}${target.search}`,
      headers,
      body,
      agent: target.protocol === 'https:' ? guard.httpsAgent : guard.httpAgent,
      signal: init.signal,
    });
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || location === undefined) return answer;
    if (hop >= MAX_REDIRECTS) throw new RedirectRefused('tooMany');
    const next = new URL(location, target);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new RedirectRefused('notHttp');
    // The hop's address first: a redirect towards a refused address is named as such, whatever else is wrong.
    await guard.check(next.hostname);
    if (answer.status === 307 || answer.status === 308) {
      if (body !== undefined && next.origin !== target.origin) throw new RedirectRefused('crossOriginBody');
    } else if (method !== 'GET' && method !== 'HEAD') {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-/i.test(name)));
    }
    target = next;
  }
}
