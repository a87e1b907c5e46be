import {
  type AdminAudience,
  CUSTOMER_STATUS_TEXTS,
  type CustomerDetail,
  confirmCustomerStatusChange,
  customerAdminConfirmName,
  MESSAGES,
  OUTCOME_TEXTS,
  typeCustomerAdminName,
} from '@portal/domain';
import { ChangeStatusActionDialog, type DialogProps } from '../../ui';
import { useChangeCustomerStatus } from './mutations';

const TEXT = MESSAGES.customer;

export interface CustomerDialogProps extends DialogProps {
  audience: AdminAudience;
  customer: CustomerDetail;
}

/**
 * A customer's changes are confirmed by typing its customer admin's full name (002 §5.4; an empty entry when it
 * has none): the prompt and the name expected.
 */
export const customerAdminConfirmation = ({ superAdminFullName }: Pick<CustomerDetail, 'superAdminFullName'>) => ({
  prompt: typeCustomerAdminName(superAdminFullName),
  expectedName: customerAdminConfirmName(superAdminFullName),
});

/**
 * 'Change status of customer' (002 §4.1, §5.4): the statuses the transition table offers from the
 * stored status, the first preselected, confirmed by typing the customer admin's full name.
 */
export function ChangeCustomerStatusDialog({ audience, customer, ...dialog }: CustomerDialogProps) {
  const mutation = useChangeCustomerStatus(audience);
  return (
    <ChangeStatusActionDialog
      {...dialog}
      action={{
        mutation,
        variables: (status) => ({ customerId: customer.id, status }),
        ...OUTCOME_TEXTS.customer.changeStatus,
      }}
      title={TEXT.changeStatusTitle}
      intro={<p>{confirmCustomerStatusChange(customer.displayName)}</p>}
      statusOptions={customer.statusOptions}
      statusTexts={CUSTOMER_STATUS_TEXTS}
      statusLabel={TEXT.newStatusLabel}
      {...customerAdminConfirmation(customer)}
      mismatchMessage={MESSAGES.confirmByName.customerStatusChange}
      confirmLabel={TEXT.changeStatusSubmit}
      data-testid="change-customer-status-dialog"
    />
  );
}
