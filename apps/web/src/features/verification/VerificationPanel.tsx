import {
  ROUTES,
  VERIFICATION,
  VERIFICATION_STATUSES,
  VERIFICATION_TEXTS,
  type VerificationStatus,
  type VerificationTaskRow,
  verificationBadge,
} from '@portal/domain';
import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';
import { ServerPagedTable, StatusBadge, usePagedQuery, useTableState } from '../../ui';
import { dashboardKeys } from '../dashboard/queries';
import { verificationColumn } from './Verification';

const TEXT = VERIFICATION_TEXTS;

/** The badge's counts and the filtered list, under the dashboard's key so its refreshes reach them. */
export const verificationKeys = {
  counts: () => [...dashboardKeys.all, 'verification', 'counts'] as const,
  tasks: () => [...dashboardKeys.lists(), 'verification'] as const,
};

/**
 * The dashboard's backup verification (issue 32 item 3): a badge per verification status with the caller's count of
 * tasks; choosing one lists those tasks (each a link to its page), choosing it again hides the list.
 */
export function VerificationPanel() {
  const headingId = useId();
  const counts = useRouteQuery(verificationKeys.counts(), ROUTES.dashboard.verificationCounts, {});
  const table = useTableState<{ status?: VerificationStatus }>({ size: VERIFICATION.pageSize });
  const status = table.filters.status;
  const list = usePagedQuery(
    verificationKeys.tasks(),
    routeCall(ROUTES.dashboard.verificationTasks, {}),
    table.params,
    { enabled: status !== undefined },
  );
  if (!counts.data) return null;
  const data = counts.data;
  return (
    <Card as="section" className="mb-3" aria-labelledby={headingId} data-testid="verification-panel">
      <Card.Body className="py-2">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <h2 id={headingId} className="h6 mb-0">
            {TEXT.title}
          </h2>
          <fieldset aria-label={TEXT.filterLabel} className="d-flex flex-wrap gap-1 border-0 p-0 m-0">
            {VERIFICATION_STATUSES.map((s) => (
              <Button
                key={s}
                size="sm"
                variant={status === s ? 'primary' : 'outline-secondary'}
                aria-pressed={status === s}
                data-testid="verification-count"
                data-status={s}
                onClick={() => table.setFilters(status === s ? {} : { status: s })}
              >
                <StatusBadge status={s} badge={verificationBadge(s)} /> {data[s]}
              </Button>
            ))}
          </fieldset>
        </div>
        {status !== undefined && (
          <div className="mt-2">
            <ServerPagedTable<VerificationTaskRow>
              table={table}
              list={list}
              rowKey={(row) => row.taskId}
              emptyText={TEXT.noTasks}
              aria-label={`${TEXT.title}: ${TEXT.status[status]}`}
              data-testid="verification-tasks"
              columns={[
                { key: 'customer', header: TEXT.columns.customer, render: (row) => row.customerName },
                { key: 'machine', header: TEXT.columns.machine, render: (row) => row.machineName },
                {
                  key: 'task',
                  header: TEXT.columns.task,
                  render: (row) => <Link to={row.backupTaskUrl}>{row.taskName}</Link>,
                },
                verificationColumn<VerificationTaskRow>(),
              ]}
            />
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
