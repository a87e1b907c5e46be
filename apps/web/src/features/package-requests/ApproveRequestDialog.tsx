import {
  type AdminAudience,
  formatBytes,
  isUnlimitedCapacity,
  MESSAGE_ROUTING,
  MESSAGES,
  PACKAGE_LABELS,
  type PackageRequestRow,
  requestApprovalSchema,
  requestNeedsStorageItem,
  type StorageItem,
  UNLIMITED_TEXT,
} from '@portal/domain';
import { useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, SelectField, useDialogSubmit, useOnOpen } from '../../ui';
import { useApproveRequest } from './mutations';

const TEXT = MESSAGES.packageRequest;

interface ApproveFormValues {
  storageItemId: string;
}

export interface ApproveRequestDialogProps {
  show: boolean;
  audience: AdminAudience;
  request: PackageRequestRow;
  onHide: () => void;
  animation?: boolean;
}

const capacityText = (item: StorageItem) =>
  isUnlimitedCapacity(item.capacityInBytes) ? UNLIMITED_TEXT : formatBytes(item.capacityInBytes);

/**
 * Approve a package request (000 §5, §7): a new signup or additional package needs the storage item to
 * link (with its capacity, or 'Unlimited'); a change request is approved as it is.
 */
export function ApproveRequestDialog({ show, audience, request, onHide, animation }: ApproveRequestDialogProps) {
  const needsItem = requestNeedsStorageItem(request.requestType);
  const items = request.availableStorageItemsToLink?.storageItems ?? [];
  const first = items[0] ? String(items[0].id) : '';
  const form = useForm<ApproveFormValues>({ defaultValues: { storageItemId: first } });
  const { isSubmitting } = form.formState;
  useOnOpen(show, () => form.reset({ storageItemId: first }));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useApproveRequest(audience),
    successText: TEXT.approved,
    partialText: TEXT.approvedWithErrors,
    unknownErrorText: TEXT.unknownWhileApproving,
    form: {
      setError: form.setError,
      fieldNames: ['storageItemId'],
      globalFieldNames: MESSAGE_ROUTING.packageRequestApprove.globalFieldNames,
    },
  });
  const approve = form.handleSubmit(async (values) => {
    const parsed = requestApprovalSchema(request.requestType).safeParse(needsItem ? values : {});
    if (!parsed.success) {
      form.setError('storageItemId', { message: parsed.error.issues[0]?.message ?? '' });
      return;
    }
    const outcome = await submit({ requestId: request.id, payload: parsed.data });
    if (outcome.close) onHide();
  });
  return (
    <FormModal
      show={show}
      title={TEXT.approveTitle}
      onHide={onHide}
      onSubmit={approve}
      submitting={isSubmitting}
      submitLabel={TEXT.approve}
      onExited={clearErrors}
      animation={animation}
      data-testid="approve-request-dialog"
    >
      <p>
        {request.customerCompanyName}: {request.requestedBackupPackageName ?? request.backupPackageName}
      </p>
      {needsItem && (
        <SelectField
          form={form}
          idPrefix="approve-"
          name="storageItemId"
          label={PACKAGE_LABELS.storageItemId}
          options={[
            { value: '', label: TEXT.chooseStorageItem },
            ...items.map((item) => ({ value: item.id, label: `${item.name} (${capacityText(item)})` })),
          ]}
        />
      )}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
