import {
  type BucketFilters,
  type BucketWithPolicyInfo,
  customerUrl,
  filterBuckets,
  MESSAGES,
  STORAGE_ACCOUNT_LABELS,
  STORAGE_ACCOUNT_PAGE_SIZES,
} from '@portal/domain';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { BrowserPagedTable, type DataTableColumn, RowButton, RowLink, StatusBadge } from '../../ui';
import { yesNo } from './credentials';
import { ManagePolicyDialog } from './ManagePolicyDialog';
import { useBuckets } from './queries';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;
const L = STORAGE_ACCOUNT_LABELS;

/**
 * The account's buckets with policy info (001 §2): Name, Managed, Policy consistent, Actions (Manage
 * customer when the bucket has one, Manage policy when it has a policy); the two filters; 10 a page with
 * a totals text past one page. A failed read shows an empty list, no message (001 §8).
 */
export function BucketsTable({ storageAccountId }: { storageAccountId: number }) {
  const buckets = useBuckets(storageAccountId);
  const [filters, setFilters] = useState<BucketFilters>({ onlyManaged: false, onlyInconsistent: false });
  // The open dialog follows the list by name, so a deleted principal disappears once the list is read again.
  const [policyOf, setPolicyOf] = useState<string | null>(null);
  const all = buckets.isError ? [] : (buckets.data ?? []);
  const rows = filterBuckets(all, filters);
  const columns: Array<DataTableColumn<BucketWithPolicyInfo>> = [
    { key: 'name', header: L.name, render: (b) => b.bucket.name },
    { key: 'managed', header: L.managed, render: (b) => yesNo(b.bucket.managed) },
    {
      key: 'policyConsistent',
      header: L.policyConsistent,
      render: (b) => (
        <StatusBadge
          status={b.policyContainsInconsistencies ? 'INCONSISTENT' : 'CONSISTENT'}
          label={yesNo(!b.policyContainsInconsistencies)}
          variant={b.policyContainsInconsistencies ? 'danger' : 'success'}
        />
      ),
    },
    {
      key: 'actions',
      header: L.actions,
      render: (b) => (
        <div className="d-flex gap-2">
          {b.bucket.customerId !== null && (
            <RowLink
              to={customerUrl('provider', b.bucket.customerId)}
              label={PAGE.manageCustomer}
              name={b.bucket.name}
            />
          )}
          {b.bucketPolicy !== null && (
            <RowButton label={PAGE.managePolicy} name={b.bucket.name} onClick={() => setPolicyOf(b.bucket.name)} />
          )}
        </div>
      ),
    },
  ];
  const filter = (key: keyof BucketFilters, label: string) => (
    <Form.Check
      inline
      type="checkbox"
      id={`buckets-${key}`}
      label={label}
      checked={filters[key]}
      onChange={(event) => setFilters((f) => ({ ...f, [key]: event.target.checked }))}
    />
  );
  return (
    <>
      <div className="mb-2">
        {filter('onlyManaged', TEXT.showOnlyManaged)}
        {filter('onlyInconsistent', TEXT.showOnlyPolicyInconsistent)}
      </div>
      <BrowserPagedTable<BucketWithPolicyInfo>
        aria-label={PAGE.bucketsTitle}
        data-testid="storage-buckets"
        columns={columns}
        rows={rows}
        rowKey={(b) => b.bucket.name}
        size={STORAGE_ACCOUNT_PAGE_SIZES.buckets}
        loading={buckets.isFetching}
        emptyText={TEXT.noBuckets}
      />
      <ManagePolicyDialog
        storageAccountId={storageAccountId}
        bucket={all.find((b) => b.bucket.name === policyOf) ?? null}
        onHide={() => setPolicyOf(null)}
      />
    </>
  );
}
