import type { FastifyInstance } from 'fastify';

/** Headers on every answer (issue #2): CSP without inline scripts, no framing, no sniffing. */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // Inline style attributes come from React and Bootstrap's components; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Content-Security-Policy', csp);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (options.https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
