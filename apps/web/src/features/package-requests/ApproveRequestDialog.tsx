import {
  type AdminAudience,
  formatBytes,
  isUnlimitedCapacity,
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  PACKAGE_LABELS,
  type PackageRequestRow,
  requestApprovalSchema,
  requestNeedsStorageItem,
  type StorageItem,
  UNLIMITED_TEXT,
} from '@portal/domain';
import { type DialogProps, FormDialog, SelectField, useFormDialog } from '../../ui';
import { useApproveRequest } from './mutations';

const TEXT = MESSAGES.packageRequest;

interface ApproveFormValues {
  storageItemId: string;
}

export interface ApproveRequestDialogProps extends DialogProps {
  audience: AdminAudience;
  request: PackageRequestRow;
}

const capacityText = (item: StorageItem) =>
  isUnlimitedCapacity(item.capacityInBytes) ? UNLIMITED_TEXT : formatBytes(item.capacityInBytes);

/**
 * Approve a package request (000 §5, §7): a new signup or additional package needs the storage item to
 * link (with its capacity, or 'Unlimited'); a change request is approved as it is.
 */
export function ApproveRequestDialog({ audience, request, ...shown }: ApproveRequestDialogProps) {
  const needsItem = requestNeedsStorageItem(request.requestType);
  const items = request.availableStorageItemsToLink?.storageItems ?? [];
  const { field, dialog } = useFormDialog({
    ...shown,
    // A change request is approved as it is: its schema sends no storage item.
    schema: requestApprovalSchema(request.requestType),
    defaults: (): ApproveFormValues => ({ storageItemId: items[0] ? String(items[0].id) : '' }),
    mutation: useApproveRequest(audience),
    variables: (payload) => ({ requestId: request.id, payload }),
    fieldNames: ['storageItemId'],
    routing: MESSAGE_ROUTING.packageRequestApprove,
    idPrefix: 'approve-',
    ...OUTCOME_TEXTS.packageRequest.approve,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.approveTitle}
      submitLabel={TEXT.approve}
      data-testid="approve-request-dialog"
    >
      <p>
        {request.customerCompanyName}: {request.requestedBackupPackageName ?? request.backupPackageName}
      </p>
      {needsItem && (
        <SelectField
          {...field}
          name="storageItemId"
          label={PACKAGE_LABELS.storageItemId}
          options={[
            { value: '', label: TEXT.chooseStorageItem },
            ...items.map((item) => ({ value: item.id, label: `${item.name} (${capacityText(item)})` })),
          ]}
        />
      )}
    </FormDialog>
  );
}
