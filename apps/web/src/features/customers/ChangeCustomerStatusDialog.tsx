import {
  type AdminAudience,
  CUSTOMER_STATUS_TEXTS,
  type CustomerDetail,
  confirmCustomerStatusChange,
  customerAdminConfirmName,
  MESSAGES,
  typeCustomerAdminName,
} from '@portal/domain';
import { ChangeStatusDialog, useDialogAction } from '../../ui';
import { useChangeCustomerStatus } from './mutations';

const TEXT = MESSAGES.customer;

export interface CustomerDialogProps {
  show: boolean;
  onHide: () => void;
  audience: AdminAudience;
  customer: CustomerDetail;
  animation?: boolean;
}

/**
 * 'Change status of customer' (002 §4.1, §5.4): the statuses the transition table offers from the
 * stored status, the first preselected, confirmed by typing the customer admin's full name.
 */
export function ChangeCustomerStatusDialog({ audience, customer, ...dialog }: CustomerDialogProps) {
  const action = useDialogAction({
    mutation: useChangeCustomerStatus(audience),
    variables: (status: (typeof customer.statusOptions)[number]) => ({ customerId: customer.id, status }),
    onHide: dialog.onHide,
    successText: TEXT.statusUpdated,
    partialText: TEXT.statusUpdatedWithErrors,
    unknownErrorText: TEXT.unknownWhileChangingStatus,
  });
  return (
    <ChangeStatusDialog
      {...dialog}
      {...action}
      title={TEXT.changeStatusTitle}
      intro={<p>{confirmCustomerStatusChange(customer.displayName)}</p>}
      statusOptions={customer.statusOptions}
      statusTexts={CUSTOMER_STATUS_TEXTS}
      statusLabel={TEXT.newStatusLabel}
      prompt={typeCustomerAdminName(customer.superAdminFullName)}
      expectedName={customerAdminConfirmName(customer.superAdminFullName)}
      mismatchMessage={MESSAGES.confirmByName.customerStatusChange}
      confirmLabel={TEXT.changeStatusSubmit}
      data-testid="change-customer-status-dialog"
    />
  );
}
