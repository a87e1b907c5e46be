import {
  type BucketWithPolicyInfo,
  confirmDeletePolicyPrincipal,
  MESSAGES,
  OUTCOME_TEXTS,
  POLICY_ENTITY_TYPE_TEXTS,
  type PolicyPrincipal,
  prettyPolicy,
  STORAGE_ACCOUNT_LABELS,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { ConfirmActionDialog, type DataTableColumn, StatusBadge, WholeTable } from '../../ui';
import { credentialTypeText, yesNo } from './credentials';
import { useDeletePolicyPrincipal } from './mutations';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;
const L = STORAGE_ACCOUNT_LABELS;

/** Linked entity (001 §2): its type and id, and for a backup action its type and status. */
function LinkedEntity({ principal }: { principal: PolicyPrincipal }) {
  if (principal.entityType === null || principal.linkedEntityId === null) {
    return <span className="text-muted">{principal.managed ? PAGE.entityGone : PAGE.none}</span>;
  }
  return (
    <>
      {POLICY_ENTITY_TYPE_TEXTS[principal.entityType]} {principal.linkedEntityId}
      {principal.backupTaskActionType && <> ({principal.backupTaskActionType})</>}{' '}
      {principal.backupTaskActionStatus && <StatusBadge status={principal.backupTaskActionStatus} />}
    </>
  );
}

export interface ManagePolicyDialogProps {
  storageAccountId: number;
  /** The bucket as the latest list has it; null closes the dialog. */
  bucket: BucketWithPolicyInfo | null;
  onHide: () => void;
}

/**
 * Manage policy (001 §2), titled with the bucket's name: 'Manage principals' lists the policy's principals
 * with their linked entities and deletes one after a confirmation; 'Raw policy' shows the policy
 * pretty-printed, with what differs from the policy the portal expects.
 */
export function ManagePolicyDialog({ storageAccountId, bucket, onHide }: ManagePolicyDialogProps) {
  const [deleting, setDeleting] = useState<PolicyPrincipal | null>(null);
  const deletion = useDeletePolicyPrincipal(storageAccountId);
  const principals = bucket?.bucketPolicyPrincipals ?? [];
  const columns: Array<DataTableColumn<PolicyPrincipal>> = [
    { key: 'name', header: L.name, render: (p) => p.name },
    { key: 'managed', header: L.managed, render: (p) => yesNo(p.managed) },
    { key: 'credentials', header: L.storageCredentials, render: (p) => credentialTypeText(p.storageCredentials.type) },
    { key: 'entity', header: L.linkedEntity, render: (p) => <LinkedEntity principal={p} /> },
    {
      key: 'actions',
      header: L.actions,
      render: (p) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`${PAGE.deletePrincipal} ${p.name}`}
          onClick={() => setDeleting(p)}
        >
          {PAGE.deletePrincipal}
        </Button>
      ),
    },
  ];
  return (
    <>
      <Modal
        show={bucket !== null && deleting === null}
        onHide={onHide}
        size="xl"
        scrollable
        data-testid="manage-policy-dialog"
        aria-labelledby="manage-policy-title"
      >
        <Modal.Header closeButton>
          <Modal.Title id="manage-policy-title">{bucket?.bucket.name}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Tabs defaultActiveKey="principals" id="manage-policy-tabs" className="mb-3" mountOnEnter>
            <Tab eventKey="principals" title={TEXT.managePrincipalsTab}>
              <WholeTable<PolicyPrincipal>
                aria-label={TEXT.managePrincipalsTab}
                data-testid="policy-principals"
                columns={columns}
                rows={principals}
                rowKey={(p) => p.name}
                emptyText={TEXT.noPrincipals}
              />
            </Tab>
            <Tab eventKey="raw" title={TEXT.rawPolicyTab}>
              <pre className="bg-light border rounded p-2 small" data-testid="raw-policy">
                {prettyPolicy(bucket?.bucketPolicy ?? null)}
              </pre>
              {bucket && bucket.policyDifferences.length > 0 && (
                <div data-testid="policy-differences">
                  <h3 className="h6">{PAGE.differencesTitle}</h3>
                  <ul className="small mb-0">
                    {bucket.policyDifferences.map((difference) => (
                      <li key={difference}>{difference}</li>
                    ))}
                  </ul>
                </div>
              )}
            </Tab>
          </Tabs>
        </Modal.Body>
      </Modal>
      <ConfirmActionDialog
        show={deleting !== null}
        onHide={() => setDeleting(null)}
        action={{
          mutation: deletion,
          variables: () =>
            deleting && bucket ? { bucketName: bucket.bucket.name, principalName: deleting.name } : null,
          ...OUTCOME_TEXTS.storageAccount.deletePrincipal,
          successToast: 'warning',
        }}
        title={PAGE.deletePrincipalTitle}
        confirmLabel={PAGE.deletePrincipal}
        data-testid="delete-principal-dialog"
      >
        <p className="mb-0">{deleting && bucket && confirmDeletePolicyPrincipal(deleting.name, bucket.bucket.name)}</p>
      </ConfirmActionDialog>
    </>
  );
}
