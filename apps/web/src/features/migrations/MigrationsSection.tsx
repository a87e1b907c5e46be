import {
  MESSAGES,
  MIGRATION_TEXTS,
  MIGRATIONS_PAGE_SIZE,
  migrationLocationText,
  migrationStatusBadge,
  migrationUrl,
  type PackageMigrationRow,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { BrowserPagedTable, localDateTime, RowLink, Section } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import { CreateMigrationDialog } from './CreateMigrationDialog';
import { type MigrationPackageRef, useMigrations } from './queries';

const C = MIGRATION_TEXTS.columns;

/**
 * A package's migrations on the provider's package page (001 §2): the table (10 a page, fetched once,
 * 'No migrations') with each migration's Manage link, and 'Migrate' opening the create dialog.
 */
export function MigrationsSection({ target }: { target: MigrationPackageRef }) {
  const migrations = useMigrations(target);
  const [creating, setCreating] = useState(false);
  return (
    <Section
      title={MIGRATION_TEXTS.sectionTitle}
      actions={
        <Button size="sm" variant="outline-primary" onClick={() => setCreating(true)}>
          {MESSAGES.migration.migrateButton}
        </Button>
      }
    >
      <BrowserPagedTable<PackageMigrationRow>
        aria-label={MIGRATION_TEXTS.sectionTitle}
        data-testid="migrations-table"
        columns={[
          {
            key: 'dateCreated',
            header: C.dateInitialized,
            render: (m) => localDateTime(m.dateCreated),
          },
          { key: 'source', header: C.source, render: (m) => migrationLocationText(m.sourceStorageLocation) },
          {
            key: 'destination',
            header: C.destination,
            render: (m) => migrationLocationText(m.destinationStorageLocation),
          },
          statusColumn(C.status, migrationStatusBadge),
          {
            key: 'finalized',
            header: C.finalized,
            render: (m) => (m.finalized ? MIGRATION_TEXTS.yes : MIGRATION_TEXTS.no),
          },
          {
            key: 'actions',
            header: C.actions,
            render: (m) => (
              <RowLink to={migrationUrl(target, m.id)} label={MIGRATION_TEXTS.manage} name={`migration ${m.id}`} />
            ),
          },
        ]}
        rows={migrations.data?.elements ?? []}
        rowKey={(m) => m.id}
        size={MIGRATIONS_PAGE_SIZE}
        loading={migrations.isFetching}
        emptyText={MESSAGES.migration.empty}
      />
      <CreateMigrationDialog show={creating} target={target} onHide={() => setCreating(false)} />
    </Section>
  );
}
