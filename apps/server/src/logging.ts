import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/**
 * What the server's log may hold (issue 18: no secret in a log line, at any level). Requests are logged as
 * method, path and the names of their query parameters, never the values: a page address can carry a password
 * reset token (`/reset-password?token=`) or an agent's linking code (`?code=`). Headers are not logged; should a
 * header or a body field ever be, the credentials among them are blanked by name.
 */

/** Field names that hold a credential, wherever they appear one or two levels into a log line's object. */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'secret',
  'token',
  'code',
  'recoveryCode',
  'accessKey',
  'secretAccessKey',
  'whmcsSecret',
  'whmcsApiAccessKey',
  'repositoryPassword',
  'cookie',
  'authorization',
];
const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

/** A request's address with each query value replaced: `/reset-password?token=…` → `/reset-password?token=*`. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const names = url
    .slice(mark + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=')[0]}=*`);
  return `${url.slice(0, mark)}?${names.join('&')}`;
}

/** The pino options every server logger is made with (main.ts; the tests that read the log use them too). */
export function serverLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
