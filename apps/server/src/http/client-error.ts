import type { Socket } from 'node:net';
import { errorMessage, failure, MESSAGES, type ResponseSummaryCode } from '@portal/domain';

/** What Node's HTTP parser could not take, as the envelope's status, code and message. */
function answerOf(code: string | undefined): {
  status: number;
  reason: string;
  summary: ResponseSummaryCode;
  text: string;
} {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      summary: 'BAD_REQUEST',
      text: MESSAGES.requestHeadersTooLarge,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, reason: 'Request Timeout', summary: 'TIMEOUT', text: MESSAGES.requestTimedOut };
  return { status: 400, reason: 'Bad Request', summary: 'BAD_REQUEST', text: MESSAGES.requestUnreadable };
}

/**
 * Fastify's clientErrorHandler: a request the HTTP parser refuses (a request line or headers over the limit, bytes
 * that are no HTTP) never reaches a route, so Node would answer it bare. The API promises the envelope for every
 * answer (docs/openapi.json), so it is written here by hand: a complete HTTP/1.1 answer with a JSON body, then the
 * connection is closed, since the parser cannot find where the next request would start.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // The client is gone: nothing can be said any more.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node does: no answer of ours once an answer on this connection has begun.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !current?.headersSent) {
    const { status, reason, summary, text } = answerOf(error.code);
    const body = JSON.stringify(failure(summary, [errorMessage(text, '', summary)]));
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n' +
        `\r\n${body}`,
    );
  }
  socket.destroy(error);
}
