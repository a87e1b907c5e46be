import { type CustomerRow, MESSAGES } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Page, RowButton, RowLink, ViewModal } from '../../ui';
import { customerPagesOf } from './audience';
import { CustomersTable } from './CustomersTable';
import { MakeResellerDialog } from './MakeResellerDialog';

const TEXT = MESSAGES.customer;

export interface SelectResellerDialogProps {
  show: boolean;
  onHide: () => void;
  onSelect: (customer: CustomerRow) => void;
  animation?: boolean;
}

/** 'Select new reseller' (002 §2.5, §4.5): the customers that may become resellers, searched and paged. */
export function SelectResellerDialog({ onSelect, ...shown }: SelectResellerDialogProps) {
  return (
    <ViewModal
      {...shown}
      title={TEXT.selectResellerTitle}
      closeLabel={TEXT.close}
      size="xl"
      data-testid="select-reseller-dialog"
    >
      <CustomersTable
        list="customersToMakeResellers"
        label={TEXT.selectResellerTitle}
        emptyText={TEXT.noCustomersToMakeResellers}
        action={(row) => <RowButton label={TEXT.select} name={row.displayName} onClick={() => onSelect(row)} />}
      />
    </ViewModal>
  );
}

type Step = { kind: 'closed' } | { kind: 'selecting' } | { kind: 'confirming'; customer: CustomerRow };

/**
 * The provider's resellers (/boltadmin/resellers, 002 §2.5) and 'New reseller': select a customer, then
 * confirm. Cancelling the confirmation goes back to the selection.
 */
export function ResellersPage() {
  const pages = customerPagesOf('provider');
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  return (
    <Page
      title={TEXT.resellersTitle}
      breadcrumbs={[...pages.crumbs, { label: TEXT.resellersTitle }]}
      actions={<Button onClick={() => setStep({ kind: 'selecting' })}>{TEXT.newResellerButton}</Button>}
    >
      <CustomersTable
        list="resellers"
        label={TEXT.resellersTitle}
        emptyText={TEXT.noResellers}
        action={(row) => <RowLink to={row.customerUrl} label={TEXT.manage} name={row.displayName} />}
      />
      <SelectResellerDialog
        show={step.kind === 'selecting'}
        onHide={() => setStep({ kind: 'closed' })}
        onSelect={(customer) => setStep({ kind: 'confirming', customer })}
      />
      <MakeResellerDialog
        show={step.kind === 'confirming'}
        customer={step.kind === 'confirming' ? step.customer : null}
        onHide={() => setStep({ kind: 'selecting' })}
        onMade={() => setStep({ kind: 'closed' })}
      />
    </Page>
  );
}
