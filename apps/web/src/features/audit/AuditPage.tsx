import {
  AUDIT_COUNT_LIMIT,
  AUDIT_PAGE_SIZE,
  AUDIT_TEXTS,
  type AuditRow,
  auditSubjectText,
  auditTenantText,
  ROUTES,
  withQuery,
} from '@portal/domain';
import { useEffect, useMemo } from 'react';
import Button from 'react-bootstrap/Button';
import { useSearchParams } from 'react-router';
import { routeCall } from '../../app/api';
import { useSession } from '../../app/session';
import { DataTable, localDateTime, Page, StatusBadge, usePagedQuery, useTableState } from '../../ui';
import { AuditFilterForm, type AuditFilterQuery, auditFilterOfAddress } from './AuditFilterForm';

const C = AUDIT_TEXTS.columns;
const OUTCOME_VARIANT = { succeeded: 'success', refused: 'warning', failed: 'danger' } as const;

export interface AuditPageProps {
  /**
   * provider: every tenant (/boltadmin/audit); account: the super admin's own account (/admin/account/audit), for
   * a reseller its customers' too.
   */
  audience: 'provider' | 'account';
}

/** The audit trail (issue 18): filtered, paged by the server, newest first, exported as CSV with the same filter. */
export function AuditPage({ audience }: AuditPageProps) {
  const provider = audience === 'provider';
  const { actor } = useSession();
  const reseller = !provider && actor?.resellerEnabled === true;
  const manyTenants = provider || reseller;
  const list = provider ? ROUTES.audit.provider : ROUTES.audit.account;
  const exportRoute = provider ? ROUTES.audit.providerExport : ROUTES.audit.accountExport;
  // The filter lives in the page's address, so a filtered trail can be bookmarked, shared and gone back to.
  const [address, setAddress] = useSearchParams();
  const { fields, query } = useMemo(() => auditFilterOfAddress(address, manyTenants), [address, manyTenants]);
  // A filter the schema refuses asks for nothing: its fields say what to correct.
  const valid = query !== null;
  const table = useTableState<AuditFilterQuery>({ size: AUDIT_PAGE_SIZE, filters: query ?? {} });
  const { setFilters } = table;
  useEffect(() => {
    if (query) setFilters(query);
  }, [query, setFilters]);
  const rows = usePagedQuery(['audit', audience], routeCall(list, {}), table.params, { enabled: valid });
  const apply = (next: AuditFilterQuery) =>
    setAddress(
      Object.entries(next).flatMap(([name, value]): [string, string][] =>
        value === undefined ? [] : [[name, String(value)]],
      ),
    );
  return (
    <Page
      title={provider ? AUDIT_TEXTS.providerTitle : AUDIT_TEXTS.accountTitle}
      subtitle={provider ? undefined : reseller ? AUDIT_TEXTS.resellerSubtitle : AUDIT_TEXTS.accountSubtitle}
      actions={
        query ? (
          <a
            className="btn btn-outline-primary"
            href={withQuery(exportRoute.path, query)}
            download
            data-testid="audit-export"
          >
            {AUDIT_TEXTS.exportCsv}
          </a>
        ) : (
          <Button variant="outline-primary" disabled data-testid="audit-export">
            {AUDIT_TEXTS.exportCsv}
          </Button>
        )
      }
    >
      {/* A new address (back, forward, a link) shows its own filter in fresh fields. */}
      <AuditFilterForm
        key={address.toString()}
        withTenant={manyTenants}
        viewer={provider ? 'provider' : reseller ? 'reseller' : 'customer'}
        initial={fields}
        onApply={apply}
      />
      <DataTable<AuditRow>
        aria-label={AUDIT_TEXTS.providerTitle}
        data-testid="audit-table"
        columns={[
          { key: 'at', header: C.at, render: (r) => localDateTime(r.at) },
          { key: 'kind', header: C.kind, render: (r) => r.kindName },
          {
            key: 'who',
            header: C.who,
            render: (r) => (r.email ? `${r.name ?? ''} <${r.email}>`.trim() : '—'),
          },
          ...(manyTenants
            ? [{ key: 'tenant', header: C.tenant, render: (r: AuditRow) => auditTenantText(r) || '—' }]
            : []),
          { key: 'subject', header: C.subject, render: (r) => auditSubjectText(r) || '—' },
          {
            key: 'outcome',
            header: C.outcome,
            render: (r) =>
              r.outcome ? (
                <StatusBadge
                  status={r.outcome}
                  label={`${AUDIT_TEXTS.outcomes[r.outcome]}${r.httpStatus ? ` (${r.httpStatus})` : ''}`}
                  variant={OUTCOME_VARIANT[r.outcome]}
                />
              ) : (
                '—'
              ),
          },
          { key: 'ipAddress', header: C.ipAddress, render: (r) => r.ipAddress ?? '—' },
        ]}
        rows={valid ? rows.rows : []}
        rowKey={(r) => r.id}
        totalElements={valid ? rows.totalElements : 0}
        page={table.page}
        size={table.size}
        onPageChange={table.setPage}
        loading={rows.loading}
        emptyText={valid ? AUDIT_TEXTS.empty : AUDIT_TEXTS.addressFilterInvalid}
        caption={rows.totalElements >= AUDIT_COUNT_LIMIT ? AUDIT_TEXTS.countLimited : undefined}
      />
    </Page>
  );
}
