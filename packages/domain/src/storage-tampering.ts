import type { NotificationMail } from './notifications.js';

/**
 * Issue 32 item 6: what a machine's own key may not do to its backups, and how the portal reports an attempt.
 * A machine may create, read, list and write its repository and delete only its lock files; retention and every
 * other deletion run on the portal with the location's key. An attempt to delete or replace anything else is
 * refused and recorded; the provider hears of it once per burst, however hard the machine hammers.
 */

/** A burst of attempts ends after this many minutes without one; the next attempt starts a new burst. */
export const TAMPERING_BURST_MINUTES = 60;

/** What a machine tried: remove an object, replace one with other content, or change the bucket's rules. */
export const TAMPERING_ACTIONS = ['delete', 'overwrite', 'policy'] as const;
export type TamperingAction = (typeof TAMPERING_ACTIONS)[number];

/** Where the attempt was seen: refused by the portal's REST backend, or found by the portal in an S3 bucket. */
export const TAMPERING_SOURCES = ['LOCAL', 'S3'] as const;
export type TamperingSource = (typeof TAMPERING_SOURCES)[number];

export interface TamperingAttempt {
  machineId: number;
  action: TamperingAction;
  /** The repository object, e.g. `data/3f…`, `config`, or the bucket for a policy change. */
  object: string;
  source: TamperingSource;
  ipAddress: string | null;
}

export const TAMPERING_TEXTS = {
  /** The REST backend's 403 to a machine replacing an object with other content. */
  overwriteRefused: 'An object of a repository is never replaced with other content',
  action: { delete: 'delete', overwrite: 'overwrite', policy: 'change the bucket policy of' } as Record<
    TamperingAction,
    string
  >,
} as const;

/** The provider admins' alert: the first attempt of a burst, with where to look. */
export function tamperingMail(input: {
  machineName: string;
  customerName: string;
  attempt: Pick<TamperingAttempt, 'action' | 'object' | 'source' | 'ipAddress'>;
  at: Date;
  machinePath: string;
}): NotificationMail {
  const { attempt } = input;
  const seen =
    attempt.source === 'LOCAL'
      ? 'The embedded storage refused it; the backups are unchanged.'
      : 'The object was replaced at the S3 service and the portal put its original content back (Object Lock kept it).';
  return {
    subject: `Backups attacked: machine ${input.machineName} of ${input.customerName}`,
    lines: [
      `At ${input.at.toISOString()} the machine ${input.machineName} of ${input.customerName} tried to ${TAMPERING_TEXTS.action[attempt.action]} ${attempt.object} in its backup repository${attempt.ipAddress ? ` (from ${attempt.ipAddress})` : ''}.`,
      seen,
      `Further attempts within ${TAMPERING_BURST_MINUTES} minutes are counted in the audit trail without another e-mail.`,
      'Ransomware or an intruder may hold the machine: check it, and revoke its access on the machine page if in doubt.',
    ],
    link: { label: 'Open the machine', path: input.machinePath },
  };
}
