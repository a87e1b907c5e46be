import {
  type AdminAudience,
  formatBytes,
  MESSAGES,
  machineLimitText,
  PACKAGE_TABLES_PAGE_SIZE,
  type PackageTemplateRow,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { routeCall } from '../../app/api';
import { type DataTableColumn, Page, PagedTable, RowButton, StatusBadge } from '../../ui';
import { AddTemplateDialog } from './AddTemplateDialog';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { EditTemplateDialog } from './EditTemplateDialog';
import { templateKeys, templateRoutes } from './queries';

const TEXT = MESSAGES.packageTemplate;
const C = TEXT.columns;

type Open = { kind: 'add' } | { kind: 'edit' | 'delete'; template: PackageTemplateRow } | null;

/** Who a provider's template is offered to (ours): a badge for resellers only, plain text for every customer. */
const audienceCell = (t: PackageTemplateRow) =>
  t.resellersOnly ? (
    <StatusBadge status="RESELLERS_ONLY" label={TEXT.audience.resellersOnly} variant="info" />
  ) : (
    TEXT.audience.everyone
  );

/**
 * Package templates (000 §2): the provider's in the admin area, a reseller's own under /admin. An Add
 * modal, the paged table (5 per page) and per-row Edit and Delete. The provider's table also shows who each
 * template is offered to; a reseller's templates are all for its customers.
 */
export function PackageTemplatesPage({ audience }: { audience: AdminAudience }) {
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const columns: Array<DataTableColumn<PackageTemplateRow>> = [
    { key: 'name', header: C.name, render: (t) => t.name },
    { key: 'storageQuota', header: C.storageQuota, render: (t) => formatBytes(t.storageQuotaInBytes) },
    { key: 'machines', header: C.machines, render: (t) => machineLimitText(t.noOfMachinesLimit) },
    ...(audience === 'provider' ? [{ key: 'audience', header: C.audience, render: audienceCell }] : []),
    {
      key: 'actions',
      header: C.actions,
      render: (t) => (
        <div className="d-flex gap-2">
          <RowButton label={TEXT.edit} name={t.name} onClick={() => setOpen({ kind: 'edit', template: t })} />
          <RowButton
            label={TEXT.delete}
            name={t.name}
            variant="outline-danger"
            onClick={() => setOpen({ kind: 'delete', template: t })}
          />
        </div>
      ),
    },
  ];
  return (
    <Page title={TEXT.pageTitle} actions={<Button onClick={() => setOpen({ kind: 'add' })}>{TEXT.addButton}</Button>}>
      <PagedTable
        aria-label={TEXT.tableLabel}
        data-testid="package-templates-table"
        queryKey={templateKeys.list(audience)}
        call={routeCall(templateRoutes(audience).list, {})}
        size={PACKAGE_TABLES_PAGE_SIZE}
        columns={columns}
        rowKey={(t) => t.id}
        emptyText={TEXT.empty}
      />
      <AddTemplateDialog show={open?.kind === 'add'} audience={audience} onHide={close} />
      {open?.kind === 'edit' && <EditTemplateDialog show audience={audience} template={open.template} onHide={close} />}
      {open?.kind === 'delete' && (
        <DeleteTemplateDialog show audience={audience} template={open.template} onHide={close} />
      )}
    </Page>
  );
}
