import { portalAddress } from '../config.js';
import { registerDemoMailRoutes } from '../features/demo/routes.js';
import { createMailFailuresRepo } from '../features/mail-failures/repo.js';
import { registerMailFailureRoutes } from '../features/mail-failures/routes.js';
import { createNotificationsRepo } from '../features/notifications/repo.js';
import { registerNotificationSettingsRoutes } from '../features/notifications/routes.js';
import { createNotificationEvents, createNotificationSettingsService } from '../features/notifications/service.js';
import { mailDeliveryJob } from '../jobs/mail-delivery.js';
import { passJob } from '../jobs/passes.js';
import { createMailBrands } from '../mail/brand.js';
import { createMailDelivery } from '../mail/delivery.js';
import type { Mailer } from '../mail/mailer.js';
import type { MailSink } from '../mail/sink.js';
import type { AreaContext } from './context.js';

/**
 * Mail and alerts (issue 17): every mail in its customer's brand, through its reseller's SMTP server or ours, by the
 * delivery job; the failed mails' page; backup alerts and their settings; the demo's mail box.
 */
export function wireMail(ctx: AreaContext, deps: { mailer: Mailer; mailSink?: MailSink | undefined }) {
  const { app, config, db } = ctx;
  const delivery = createMailDelivery({
    db,
    brands: createMailBrands({ db, secrets: ctx.secrets, publicUrl: portalAddress(config) }),
    providerMailer: deps.mailer,
    trust: { guard: ctx.guard, caFile: config.smtpCaFile },
    logger: ctx.log,
    providerTransportOnly: config.demo && deps.mailSink !== undefined,
    queued: () => deliveryJob.kick(),
    outcomes: { sent: () => ctx.metrics.mailSent(), failed: (givenUp) => ctx.metrics.mailFailed(givenUp) },
  });
  ctx.metrics.provide({ mailQueued: () => delivery.queuedCount() });
  const deliveryJob = ctx.runner.add(mailDeliveryJob({ delivery, everyMs: config.mailDeliveryIntervalMs }));
  ctx.runner.add(passJob('sent-mail-cleanup', () => delivery.deleteOldSent()));
  app.decorate('mailDelivery', { runOnce: () => deliveryJob.runOnce() });
  registerMailFailureRoutes(app, { repo: createMailFailuresRepo(db) });
  if (config.demo && deps.mailSink) registerDemoMailRoutes(app, deps.mailSink);

  // Backup alerts: run, missed-run and quota mails queued with the events that cause them; the rest by the job.
  const notificationEvents = createNotificationEvents({ db, now: ctx.now });
  registerNotificationSettingsRoutes(app, {
    settings: createNotificationSettingsService({ db, repo: createNotificationsRepo(db) }),
  });
  ctx.runner.add(
    passJob('notifications', async () => ({
      offline: await notificationEvents.offlinePass(),
      summaries: await notificationEvents.summaryPass(),
    })),
  );

  /** Wakes the delivery job after a feature queued mail itself (enqueueMails in its own transaction). */
  const queued = () => deliveryJob.kick();
  return { delivery, notificationEvents, queued };
}

export type MailArea = ReturnType<typeof wireMail>;
