import {
  type MailFailureRow,
  MESSAGES,
  mayChange,
  NOTIFICATION_KINDS,
  NOTIFICATION_LABELS,
  NOTIFICATION_TEXTS,
  type NotificationUserRow,
  PAGES,
  SUMMARY_FREQUENCY_NAMES,
  VERIFICATION_REPORT_TEXTS,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useSession } from '../../app/session';
import { type DataTableColumn, localDateTime, Page, PagedTable, SearchBox, Section } from '../../ui';
import { MonthlyMailForm } from '../verification-report/MonthlyMailForm';
import { useVerificationReportSettings } from '../verification-report/queries';
import { EditNotificationsDialog } from './EditNotificationsDialog';
import { notificationList, useThresholds } from './queries';
import { ThresholdsForm } from './ThresholdsForm';

const TEXT = NOTIFICATION_TEXTS;
const L = NOTIFICATION_LABELS;
const C = TEXT.columns;

/** A tick or a dash, read out as Yes or No. */
const onOff = (on: boolean) => (
  <span className={on ? 'text-success' : 'text-muted'}>
    <span aria-hidden="true">{on ? '✓' : '–'}</span>
    <span className="visually-hidden">{on ? MESSAGES.yes : MESSAGES.no}</span>
  </span>
);

const FAILURE_COLUMNS: Array<DataTableColumn<MailFailureRow>> = [
  { key: 'when', header: C.when, render: (f) => localDateTime(f.createdAt) },
  { key: 'kind', header: C.kind, render: (f) => f.kindName },
  { key: 'recipient', header: C.recipient, render: (f) => f.recipient },
  {
    key: 'status',
    header: C.status,
    render: (f) => (f.status === 'FAILED' ? TEXT.failedStatus : TEXT.retryingStatus),
  },
  { key: 'attempts', header: C.attempts, render: (f) => f.attempts },
  { key: 'lastError', header: C.lastError, render: (f) => <span className="text-break">{f.lastError}</span> },
];

/**
 * Notification Settings (002 §2.1, issue 17), the customer super admin's: the alert thresholds, who gets
 * which e-mails for which machines, and the e-mails that could not be delivered.
 */
export function NotificationSettingsPage() {
  const thresholds = useThresholds();
  const verificationSettings = useVerificationReportSettings();
  // A read-only super admin looks without changing (the server refuses the changes too).
  const { actor } = useSession();
  const mayEdit = actor !== null && mayChange(actor);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<NotificationUserRow | null>(null);

  const editColumn: DataTableColumn<NotificationUserRow> = {
    key: 'edit',
    header: <span className="visually-hidden">{TEXT.edit}</span>,
    render: (u) => (
      <Button size="sm" variant="outline-primary" aria-label={TEXT.editLabel(u.name)} onClick={() => setEditing(u)}>
        {TEXT.edit}
      </Button>
    ),
  };
  const columns: Array<DataTableColumn<NotificationUserRow>> = [
    {
      key: 'user',
      header: C.user,
      render: (u) => (
        <>
          <div>{u.name}</div>
          <div className="small text-muted">{u.roleName}</div>
        </>
      ),
    },
    { key: 'email', header: C.email, render: (u) => u.email },
    ...NOTIFICATION_KINDS.map((kind) => ({
      key: kind,
      header: L[kind],
      className: 'text-center',
      render: (u: NotificationUserRow) => onOff(u[kind]),
    })),
    { key: 'summary', header: L.summary, render: (u) => SUMMARY_FREQUENCY_NAMES[u.summary] },
    {
      key: 'machines',
      header: TEXT.machinesColumn,
      render: (u) =>
        u.allMachines ? (
          TEXT.allMachinesShort
        ) : (
          <span title={u.machines.map((m) => m.name).join(', ')}>{TEXT.chosenCount(u.machines.length)}</span>
        ),
    },
    ...(mayEdit ? [editColumn] : []),
  ];

  return (
    <Page
      title={TEXT.title}
      subtitle={TEXT.subtitle}
      breadcrumbs={[{ label: MESSAGES.customer.dashboardCrumb, href: PAGES.dashboard }, { label: TEXT.title }]}
    >
      <Section title={TEXT.customerSection}>
        {thresholds.data && <ThresholdsForm thresholds={thresholds.data} readOnly={!mayEdit} />}
      </Section>
      <Section title={VERIFICATION_REPORT_TEXTS.monthlyMailSection}>
        {verificationSettings.data && <MonthlyMailForm settings={verificationSettings.data} readOnly={!mayEdit} />}
      </Section>
      <Section
        title={TEXT.usersSection}
        actions={<SearchBox label={TEXT.searchUsers} placeholder={TEXT.searchUsers} onSearch={setSearch} />}
      >
        <PagedTable
          aria-label={TEXT.usersSection}
          data-testid="notification-users-table"
          {...notificationList('users')}
          search={search}
          columns={columns}
          rowKey={(u) => u.userId}
          emptyText={TEXT.noUsers}
        />
      </Section>
      <Section title={TEXT.failuresSection}>
        <PagedTable
          aria-label={TEXT.failuresSection}
          data-testid="delivery-failures-table"
          {...notificationList('failures')}
          columns={FAILURE_COLUMNS}
          rowKey={(f) => f.id}
          emptyText={TEXT.noFailures}
        />
      </Section>
      <EditNotificationsDialog user={editing} onHide={() => setEditing(null)} />
    </Page>
  );
}
