import { AFTER_LOGOUT_URL, errorMessage, MESSAGES, ok, PAGES, passwordResetMail, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { AfterAnswer } from '../../http/after-answer.js';
import { AppError, parseWith } from '../../http/errors.js';
import {
  type CookieOptions,
  clearSessionCookie,
  clientInfo,
  requireMfaPending,
  requireSignedIn,
  setSessionCookie,
} from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MailDelivery } from '../../mail/delivery.js';
import { type AuthService, codeRefused } from './service.js';

/** A browser form post gets redirects; a scripted call (the SPA's fetch) gets the envelope. */
const wantsJson = (accept: string | undefined) => (accept ?? '').includes('application/json');

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; mail: Pick<MailDelivery, 'sendNow'>; afterAnswer: AfterAnswer; cookies: CookieOptions },
): void {
  const { auth, mail, cookies, afterAnswer } = deps;
  const r = ROUTES.auth;

  route(app, r.signIn, async (request, reply) => {
    const form = r.signIn.body.safeParse(request.body);
    if (!form.success) return reply.redirect('/login?error');
    const outcome = await auth.signIn(form.data.username, form.data.password, clientInfo(request));
    switch (outcome.kind) {
      case 'signedIn':
        setSessionCookie(reply, outcome.token, cookies);
        return reply.redirect('/');
      case 'mfaPending':
        setSessionCookie(reply, outcome.token, cookies);
        return reply.redirect(PAGES.loginMfa);
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
    if (request.mfaPending) await auth.dropPending(request.mfaPending);
    clearSessionCookie(reply, cookies);
    if (wantsJson(request.headers.accept)) return ok({ redirect: AFTER_LOGOUT_URL });
    return reply.redirect(AFTER_LOGOUT_URL);
  });

  // The second step of a two-factor sign-in (issue 18): answered to the SPA's call, which then goes to '/'.
  route(app, ROUTES.mfa.secondStep, async (request, reply) => {
    const { code } = parseWith(ROUTES.mfa.secondStep.body, request.body);
    const outcome = await auth.completeSignIn(requireMfaPending(request), code, clientInfo(request));
    switch (outcome.kind) {
      case 'signedIn':
        setSessionCookie(reply, outcome.token, cookies);
        return ok({ redirect: PAGES.dashboard });
      case 'throttled':
      case 'failed':
        throw codeRefused(outcome);
      default:
        throw codeRefused({ kind: 'failed' });
    }
  });

  route(app, r.forgotPassword, async (request, reply) => {
    const { email } = parseWith(r.forgotPassword.body, request.body);
    const client = clientInfo(request);
    // Whether the address has an account shows only in the mailbox: the answer is out before it is looked up.
    afterAnswer.run(reply, 'password reset request', async () => {
      const created = await auth.requestReset(email, client);
      if (!created) return;
      // Sent at once, not queued: the link must arrive fast, and its token is kept nowhere but in the mail.
      const path = `${PAGES.resetPassword}?token=${encodeURIComponent(created.token)}`;
      await mail.sendNow(created.user.customerId, created.user.email, (brand) =>
        passwordResetMail(brand.name, created.user.firstName, path),
      );
    });
    return ok({ message: MESSAGES.resetMailSent });
  });

  route(app, r.resetPassword, async (request) => {
    const input = parseWith(r.resetPassword.body, request.body);
    const done = await auth.resetPassword(input.token, input.password, clientInfo(request));
    if (!done) throw new AppError(400, 'RESET_LINK_INVALID', [errorMessage(MESSAGES.resetLinkInvalid)]);
    return ok({ message: MESSAGES.passwordReset });
  });
}
