import { MESSAGES, type PackageRow } from '@portal/domain';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Page } from '../../ui';
import { EditPackageDialog } from './EditPackageDialog';
import { InitializePackageDialog } from './InitializePackageDialog';
import { PackagesTable } from './PackagesTable';

export interface PackagesPageProps {
  /** The page action slot: 'Purchase package' (the billing feature's). */
  actions?: ReactNode;
  /** More buttons per row: 'Upgrade' (the billing feature's). */
  rowActions?: (pkg: PackageRow) => ReactNode;
}

/** /admin/backuppackages (000 §2): the customer admins' packages with Edit and Initialize. */
export function PackagesPage({ actions, rowActions }: PackagesPageProps) {
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'initialize'; pkg: PackageRow } | null>(null);
  const close = () => setDialog(null);
  return (
    <Page title={MESSAGES.packagePages.title} actions={actions}>
      <PackagesTable
        onEdit={(pkg) => setDialog({ kind: 'edit', pkg })}
        onInitialize={(pkg) => setDialog({ kind: 'initialize', pkg })}
        {...(rowActions ? { rowActions } : {})}
      />
      {dialog && (
        <>
          <EditPackageDialog show={dialog.kind === 'edit'} onHide={close} pkg={dialog.pkg} />
          <InitializePackageDialog show={dialog.kind === 'initialize'} onHide={close} pkg={dialog.pkg} />
        </>
      )}
    </Page>
  );
}
