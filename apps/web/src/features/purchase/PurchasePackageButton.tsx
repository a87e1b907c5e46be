import { isCustomerSuperAdmin, MESSAGES, mayChange, OUTCOME_TEXTS, packagePurchaseSchema } from '@portal/domain';
import { useSession } from '../../app/session';
import { DialogButton, type Refresh } from '../../ui';
import { usePurchasePackage } from './mutations';
import { TemplateChoiceDialog } from './TemplateChoiceDialog';

const T = MESSAGES.purchase;

export interface PurchasePackageButtonProps {
  /** What a purchase makes stale on the page: its packages table, with the spec's delay. */
  refreshes: readonly Refresh[];
  animation?: boolean;
}

/** 'Purchase package' and its dialog (000 §6, §7): shown to the customer super admin only. */
export function PurchasePackageButton({ refreshes, animation }: PurchasePackageButtonProps) {
  const { actor } = useSession();
  const mutation = usePurchasePackage(refreshes);
  if (!actor || !isCustomerSuperAdmin(actor) || !mayChange(actor)) return null;
  return (
    <DialogButton
      variant="primary"
      dialog={(open) => (
        <TemplateChoiceDialog
          {...open}
          title={T.purchaseTitle}
          submitLabel={T.purchaseSubmit}
          field="packageTemplateId"
          schema={packagePurchaseSchema}
          mutation={mutation}
          texts={OUTCOME_TEXTS.package.purchase}
          animation={animation}
          data-testid="purchase-package-dialog"
        />
      )}
    >
      {T.purchaseButton}
    </DialogButton>
  );
}
