import {
  ACCOUNT_MAIL_KINDS,
  changesSignInEmail,
  errorMessage,
  MESSAGES,
  ok,
  pageOf,
  profileSchema,
  ROUTES,
  signInEmailChangedMail,
} from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { AfterAnswer } from '../../http/after-answer.js';
import { AppError, conflict, parseWith, throttledOn } from '../../http/errors.js';
import { clientInfo, requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MailDelivery } from '../../mail/delivery.js';
import type { AuditRepo } from '../audit/repo.js';
import type { AuthRepo } from '../auth/repo.js';
import type { AuthService, PasswordCheck } from '../auth/service.js';
import { presentActivity, presentProfile } from './present.js';
import type { ProfileRepo } from './repo.js';

/** The current password a change needs: wrong on its field, or throttled like sign-in. */
function refuseUnlessRight(check: PasswordCheck): void {
  if (check.kind === 'throttled') throw throttledOn(check.waitSeconds, 'currentPassword');
  if (check.kind === 'wrong') {
    throw new AppError(400, 'VALIDATION_FAILED', [errorMessage(MESSAGES.currentPasswordWrong, 'currentPassword')]);
  }
}

export function registerProfileRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    authRepo: AuthRepo;
    profiles: ProfileRepo;
    audit: AuditRepo;
    mail: Pick<MailDelivery, 'queue'>;
    afterAnswer: AfterAnswer;
    /** The session carries the user's details: it is looked up again after they change. */
    userChanged: (userId: number) => Promise<void>;
    now?: () => Date;
  },
): void {
  const now = deps.now ?? (() => new Date());
  const r = ROUTES.profile;

  route(app, r.get, async (request) => {
    const { user } = requireSignedIn(request);
    return ok(presentProfile(user));
  });

  route(app, r.update, async (request, reply) => {
    const session = requireSignedIn(request);
    const { currentPassword, ...fields } = parseWith(profileSchema(session.user.email), request.body);
    const emailChanges = changesSignInEmail(session.user.email, fields.email);
    if (emailChanges)
      refuseUnlessRight(await deps.auth.checkCurrentPassword(session.user.id, currentPassword, clientInfo(request)));
    if (!(await deps.profiles.update(session.user.id, fields))) throw conflict(MESSAGES.emailTaken, 'email');
    await deps.userChanged(session.user.id);
    if (emailChanges) {
      // The old address learns of the change, so a taken-over account does not go unnoticed.
      const { id: userId, customerId, email: oldEmail, firstName } = session.user;
      const change = { newEmail: fields.email, at: now() };
      deps.afterAnswer.run(reply, 'sign-in e-mail change mail', () =>
        deps.mail.queue(
          {
            eventKey: `sign-in-email-changed:${userId}:${change.at.getTime()}`,
            kind: ACCOUNT_MAIL_KINDS.signInEmailChanged,
            customerId,
            recipient: oldEmail,
          },
          (brand) => signInEmailChangedMail(brand.name, firstName, change),
        ),
      );
    }
    await deps.audit.record({
      type: 'PROFILE_UPDATED',
      userId: session.user.id,
      customerId: session.user.customerId,
      email: fields.email,
      ipAddress: request.ip,
    });
    const updated = await deps.authRepo.findUserById(session.user.id);
    return ok(updated ? presentProfile(updated) : null);
  });

  route(app, r.changePassword, async (request) => {
    const session = requireSignedIn(request);
    const input = parseWith(r.changePassword.body, request.body);
    const outcome = await deps.auth.changePassword(session, input, clientInfo(request));
    if (outcome !== 'changed') refuseUnlessRight(outcome);
    return ok({ message: MESSAGES.passwordChanged });
  });

  route(app, r.activity, async (request) => {
    const session = requireSignedIn(request);
    const paging = parseWith(r.activity.query, request.query);
    const { rows, total } = await deps.audit.pageForUser(session.user.id, paging);
    return ok(pageOf(rows.map(presentActivity), total, paging.size));
  });
}
