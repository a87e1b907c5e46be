import {
  type AdminAudience,
  CUSTOMER_STATUS_TEXTS,
  type CustomerDetail,
  type CustomerStatus,
  confirmCustomerStatusChange,
  customerAdminConfirmName,
  MESSAGES,
  preselectedStatusOption,
  typeCustomerAdminName,
} from '@portal/domain';
import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { ConfirmByNameDialog, GlobalErrors, useDialogSubmit, useOnOpen } from '../../ui';
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
export function ChangeCustomerStatusDialog({ show, onHide, audience, customer, animation }: CustomerDialogProps) {
  const selectId = useId();
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useChangeCustomerStatus(audience),
    successText: TEXT.statusUpdated,
    partialText: TEXT.statusUpdatedWithErrors,
    unknownErrorText: TEXT.unknownWhileChangingStatus,
  });
  const first = preselectedStatusOption(customer.statusOptions);
  const [status, setStatus] = useState<CustomerStatus | null>(first);
  // Each opening starts from the first option of the customer's current status.
  useOnOpen(show, () => setStatus(first));

  const confirm = async () => {
    if (status === null) return;
    const outcome = await submit({ customerId: customer.id, status });
    if (outcome.close) onHide();
  };

  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      onExited={clearErrors}
      title={TEXT.changeStatusTitle}
      before={
        <>
          <p>{confirmCustomerStatusChange(customer.displayName)}</p>
          <Form.Group className="mb-3" controlId={selectId}>
            <Form.Label>{TEXT.newStatusLabel}</Form.Label>
            <Form.Select value={status ?? ''} onChange={(event) => setStatus(event.target.value as CustomerStatus)}>
              {customer.statusOptions.map((option) => (
                <option key={option} value={option}>
                  {CUSTOMER_STATUS_TEXTS[option]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </>
      }
      prompt={typeCustomerAdminName(customer.superAdminFullName)}
      expectedName={customerAdminConfirmName(customer.superAdminFullName)}
      mismatchMessage={MESSAGES.confirmByName.customerStatusChange}
      confirmLabel={TEXT.changeStatusSubmit}
      variant="primary"
      onConfirm={confirm}
      animation={animation}
      data-testid="change-customer-status-dialog"
    >
      <GlobalErrors messages={globalErrors} />
    </ConfirmByNameDialog>
  );
}
