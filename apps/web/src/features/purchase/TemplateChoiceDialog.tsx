import { MESSAGES, NO_TEMPLATE_CHOSEN, type OutcomeTexts, type PurchaseResult } from '@portal/domain';
import type { z } from 'zod';
import { type ApiMutation, ChoiceDialog, type DialogProps, toast } from '../../ui';
import { openInvoice } from './invoice';
import { useTemplatesOnOffer } from './queries';

const T = MESSAGES.purchase;

/** The payload field of the template choice: purchase's or up/downgrade's (000 §7). */
export type TemplateField = 'packageTemplateId' | 'newPackageTemplateId';

export interface TemplateChoiceDialogProps<P> extends DialogProps {
  title: string;
  submitLabel: string;
  field: TemplateField;
  /** The domain schema of the payload: a template must be chosen ('Must choose a backup package'). */
  schema: z.ZodType<P>;
  mutation: ApiMutation<P, PurchaseResult>;
  /** The success toast is shown here, and only when no invoice is to be paid. */
  texts: OutcomeTexts;
  /** Left out of the choices: the package's own template, for an up/downgrade. */
  currentTemplateId?: number | null;
  'data-testid'?: string;
}

/**
 * Purchase and up/downgrade (000 §5, §7): a template chosen from those on offer, 'Choose a backup package'
 * (-1) first. An answer with an invoice sends the browser to pay it in the billing system (through
 * GET /billing/info); otherwise the success toast says the request was made.
 */
export function TemplateChoiceDialog<P>({
  texts: { successText, ...texts },
  currentTemplateId = null,
  ...props
}: TemplateChoiceDialogProps<P>) {
  const templates = useTemplatesOnOffer(props.show);
  const choices = (templates.data?.elements ?? []).filter((t) => t.id !== currentTemplateId);
  return (
    <ChoiceDialog
      {...props}
      label={T.templateLabel}
      nothingChosen={{ value: NO_TEMPLATE_CHOSEN, label: MESSAGES.signUp.templatePlaceholder }}
      options={choices.map((t) => ({ value: t.id, label: t.name }))}
      texts={texts}
      onOutcome={async (outcome) => {
        if (!outcome.close) return;
        const invoiceId = outcome.result?.whmcsInvoiceId ?? null;
        if (invoiceId === null) {
          toast.success(successText);
          props.onHide();
          return;
        }
        // The request is made either way; the invoice stays payable from the billing pages if it cannot open now.
        const problem = await openInvoice(invoiceId);
        if (problem !== null) {
          toast.error(problem);
          props.onHide();
        }
      }}
    />
  );
}
