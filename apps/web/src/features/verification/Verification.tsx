import { latestVerification, type TaskVerification, VERIFICATION_TEXTS, verificationBadge } from '@portal/domain';
import { type DataTableColumn, DetailTable, localDateTimeShort, StatusBadge } from '../../ui';

const TEXT = VERIFICATION_TEXTS;
const when = (iso: string) => localDateTimeShort(iso);

/** The verification status's badge, its hint as the tooltip. */
export function VerificationBadge({ verification }: { verification: TaskVerification }) {
  return (
    <span title={TEXT.hint[verification.status]}>
      <StatusBadge status={verification.status} badge={verificationBadge(verification.status)} />
    </span>
  );
}

/** A task row's 'Last verified' cell: the status, then the newer proof's time and how it was made. */
export function VerificationCell({ verification }: { verification: TaskVerification }) {
  const latest = latestVerification(verification);
  return (
    <span className="d-inline-flex flex-wrap align-items-center gap-1" data-testid="last-verified">
      <VerificationBadge verification={verification} />
      <span className="small text-muted">{latest ? `${when(latest.at)} (${latest.how})` : TEXT.never}</span>
    </span>
  );
}

/** The 'Last verified' column of a task table (the task rows of the machine page and the dashboard). */
export function verificationColumn<T extends { verification: TaskVerification }>(): DataTableColumn<T> {
  return {
    key: 'verification',
    header: TEXT.column,
    render: (row) => <VerificationCell verification={row.verification} />,
  };
}

/** The task page's section: the status, the last proof of restorability and the last full read. */
export function VerificationSummary({ verification }: { verification: TaskVerification }) {
  const test = verification.lastRestoreTestAt;
  const read = verification.lastFullReadAt;
  return (
    <DetailTable
      aria-label={TEXT.title}
      data-testid="verification-summary"
      rows={[
        { label: TEXT.column, value: <VerificationBadge verification={verification} /> },
        {
          label: `${TEXT.lastRestoreTest} (${TEXT.restoreTest})`,
          value: test ? `${when(test)} (${TEXT.restoreTestHow(verification.lastRestoreTestFiles ?? 0)})` : TEXT.never,
        },
        { label: `${TEXT.lastFullRead} (${TEXT.dataCheck})`, value: read ? when(read) : TEXT.never },
      ]}
    />
  );
}
