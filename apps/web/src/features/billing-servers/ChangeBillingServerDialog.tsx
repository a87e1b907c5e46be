import { zodResolver } from '@hookform/resolvers/zod';
import {
  type BillingServerChangeForm,
  billingServerChangeSchema,
  CUSTOMER_FORM_LABELS,
  type CustomerDetail,
  DEFAULT_PAYMENT_METHOD,
  MESSAGES,
  OUTCOME_TEXTS,
  PAYMENT_METHODS,
} from '@portal/domain';
import { useEffect } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { ConfirmByNameDialog, type DialogProps, SelectField, useDialogSubmit, useOnOpen } from '../../ui';
import { customerAdminConfirmation } from '../customers/ChangeCustomerStatusDialog';
import { useChangeCustomerBillingServer } from './mutations';
import { useBillingServers } from './queries';

const TEXT = MESSAGES.billing;

export interface ChangeBillingServerDialogProps extends DialogProps {
  customer: CustomerDetail;
}

/**
 * 'Change billing server for customer' (002 §2.5, §5.4, §7.3): another billing server (the current one is
 * not offered) and the payment method (default banktransfer), confirmed by typing the customer admin's
 * full name.
 */
export function ChangeBillingServerDialog({ show, onHide, customer, animation }: ChangeBillingServerDialogProps) {
  const servers = useBillingServers(show);
  const choices = (servers.data ?? []).filter((s) => s.id !== customer.whmcsServerId);
  const schema = billingServerChangeSchema(customer.whmcsServerId);
  const form = useForm<BillingServerChangeForm>({
    resolver: zodResolver(schema) as unknown as Resolver<BillingServerChangeForm>,
    defaultValues: { whmcsServerId: choices[0]?.id ?? '', paymentMethod: DEFAULT_PAYMENT_METHOD },
  });
  const firstChoice = choices[0]?.id;
  useOnOpen(show, () => form.reset({ whmcsServerId: firstChoice ?? '', paymentMethod: DEFAULT_PAYMENT_METHOD }));
  // The servers arrive after the dialog opens: preselect the first choice then.
  useEffect(() => {
    if (form.getValues('whmcsServerId') === '' && firstChoice !== undefined)
      form.setValue('whmcsServerId', firstChoice);
  }, [firstChoice, form]);

  const submission = useDialogSubmit({
    mutation: useChangeCustomerBillingServer(),
    ...OUTCOME_TEXTS.customer.changeBillingServer,
    form: { setError: form.setError, fieldNames: ['whmcsServerId', 'paymentMethod'] },
  });
  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.changeServerTitle}
      before={
        <>
          <SelectField
            form={form}
            idPrefix="change-billing-"
            name="whmcsServerId"
            label={CUSTOMER_FORM_LABELS.whmcsServerId}
            options={choices.map((s) => ({ value: s.id, label: `${s.description} (${s.whmcsHost})` }))}
          />
          {servers.isSuccess && choices.length === 0 && <p className="text-danger">{TEXT.noOtherServer}</p>}
          <SelectField
            form={form}
            idPrefix="change-billing-"
            name="paymentMethod"
            label={CUSTOMER_FORM_LABELS.paymentMethod}
            options={PAYMENT_METHODS.map((m) => ({ value: m, label: m }))}
          />
        </>
      }
      {...customerAdminConfirmation(customer)}
      mismatchMessage={MESSAGES.confirmByName.customerWhmcsServerChange}
      confirmLabel={TEXT.changeServerSubmit}
      onConfirm={async () => {
        await form.handleSubmit(async (values) => {
          const outcome = await submission.submit({ customerId: customer.id, change: schema.parse(values) });
          if (outcome.close) onHide();
        })();
      }}
      animation={animation}
      data-testid="change-billing-server-dialog"
    />
  );
}
