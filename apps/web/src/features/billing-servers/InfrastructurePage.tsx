import { BILLING_SERVER_LABELS, type BillingServerRow, MESSAGES } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { type DataTableColumn, Page, Section, WholeTable } from '../../ui';
import { BillingServerDialog, testConnection } from './BillingServerDialog';
import { DeleteBillingServerDialog } from './DeleteBillingServerDialog';
import { useTestBillingServer } from './mutations';
import { useBillingServers } from './queries';

const TEXT = MESSAGES.billing;
const L = BILLING_SERVER_LABELS;

type Open = { dialog: 'add' } | { dialog: 'edit' | 'delete'; server: BillingServerRow } | null;

const secretText = (configured: boolean) => (configured ? TEXT.configured : TEXT.notConfigured);

/** /boltadmin/infrastructure (001 §2): the provider's billing host servers. */
export function InfrastructurePage() {
  const servers = useBillingServers();
  const [open, setOpen] = useState<Open>(null);
  const tester = useTestBillingServer();
  const rows = servers.data ?? [];
  const columns: Array<DataTableColumn<BillingServerRow>> = [
    { key: 'description', header: L.description, render: (s) => s.description },
    { key: 'region', header: L.region, render: (s) => s.region },
    { key: 'whmcsHost', header: L.whmcsHost, render: (s) => s.whmcsHost },
    { key: 'whmcsPort', header: L.whmcsPort, render: (s) => s.whmcsPort },
    { key: 'whmcsPath', header: L.whmcsPath, render: (s) => s.whmcsPath },
    { key: 'whmcsIdentifier', header: L.whmcsIdentifier, render: (s) => s.whmcsIdentifier },
    { key: 'whmcsSecret', header: L.whmcsSecret, render: (s) => secretText(s.whmcsSecretConfigured) },
    { key: 'whmcsApiAccessKey', header: L.whmcsApiAccessKey, render: (s) => secretText(s.whmcsApiAccessKeyConfigured) },
    {
      key: 'actions',
      header: 'Actions',
      render: (s) => (
        <div className="d-flex gap-2">
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() => void testConnection(tester.mutateAsync, { kind: 'saved', whmcsServerId: s.id })}
          >
            {TEXT.testConnection}
          </Button>
          <Button size="sm" variant="outline-primary" onClick={() => setOpen({ dialog: 'edit', server: s })}>
            Edit
          </Button>
          <Button size="sm" variant="outline-danger" onClick={() => setOpen({ dialog: 'delete', server: s })}>
            Delete
          </Button>
        </div>
      ),
    },
  ];
  const close = () => setOpen(null);
  return (
    <Page
      title="Infrastructure"
      breadcrumbs={[{ label: 'Admin Area', href: '/boltadmin' }, { label: 'Infrastructure' }]}
      actions={
        <Button variant="primary" onClick={() => setOpen({ dialog: 'add' })} data-testid="add-billing-server">
          {TEXT.addServer}
        </Button>
      }
    >
      <Section title={TEXT.serversTitle}>
        <WholeTable<BillingServerRow>
          aria-label={TEXT.serversTitle}
          data-testid="billing-servers"
          columns={columns}
          rows={rows}
          rowKey={(s) => s.id}
          loading={servers.isLoading}
          emptyText={TEXT.serversEmpty}
        />
      </Section>
      <BillingServerDialog show={open?.dialog === 'add'} onHide={close} />
      {open && open.dialog !== 'add' && (
        <>
          <BillingServerDialog show={open.dialog === 'edit'} server={open.server} onHide={close} />
          <DeleteBillingServerDialog show={open.dialog === 'delete'} server={open.server} onHide={close} />
        </>
      )}
    </Page>
  );
}
