import { AFTER_LOGOUT_URL, errorMessage, MESSAGES, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, parseWith } from '../../http/errors.js';
import {
  type CookieOptions,
  clearSessionCookie,
  clientInfo,
  requireSignedIn,
  setSessionCookie,
} from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthService } from './service.js';

/** A browser form post gets redirects; a scripted call (the SPA's fetch) gets the envelope. */
const wantsJson = (accept: string | undefined) => (accept ?? '').includes('application/json');

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; mailer: Mailer; cookies: CookieOptions; publicUrl: string },
): void {
  const { auth, mailer, cookies } = deps;
  const r = ROUTES.auth;

  route(app, r.signIn, async (request, reply) => {
    const form = r.signIn.body.safeParse(request.body);
    if (!form.success) return reply.redirect('/login?error');
    const outcome = await auth.signIn(form.data.username, form.data.password, clientInfo(request));
    switch (outcome.kind) {
      case 'signedIn':
        setSessionCookie(reply, outcome.token, cookies);
        return reply.redirect('/');
      case 'throttled':
        return reply.redirect(`/login?error=throttled&wait=${outcome.waitSeconds}`);
      case 'suspended':
        return reply.redirect('/login?error=suspended');
      case 'failed':
        return reply.redirect('/login?error');
    }
  });

  route(app, r.signOut, async (request, reply) => {
    if (request.signedIn) await auth.signOut(requireSignedIn(request), clientInfo(request));
    clearSessionCookie(reply, cookies);
    if (wantsJson(request.headers.accept)) return ok({ redirect: AFTER_LOGOUT_URL });
    return reply.redirect(AFTER_LOGOUT_URL);
  });

  route(app, r.forgotPassword, async (request) => {
    const { email } = parseWith(r.forgotPassword.body, request.body);
    const created = await auth.requestReset(email, clientInfo(request));
    if (created) {
      const link = new URL(`/reset-password?token=${encodeURIComponent(created.token)}`, deps.publicUrl).toString();
      await mailer.send({
        to: created.user.email,
        subject: 'Reset your Cloud Portal password',
        text: [
          `Hello ${created.user.firstName},`,
          '',
          'Someone asked to reset the password of your Cloud Portal account.',
          'Open this link within 60 minutes to choose a new password (it works once):',
          '',
          link,
          '',
          'If you did not ask for this, ignore this mail; your password stays as it is.',
        ].join('\n'),
      });
    }
    return ok({ message: MESSAGES.resetMailSent });
  });

  route(app, r.resetPassword, async (request) => {
    const input = parseWith(r.resetPassword.body, request.body);
    const done = await auth.resetPassword(input.token, input.password, clientInfo(request));
    if (!done) throw new AppError(400, 'RESET_LINK_INVALID', [errorMessage(MESSAGES.resetLinkInvalid)]);
    return ok({ message: MESSAGES.passwordReset });
  });
}
