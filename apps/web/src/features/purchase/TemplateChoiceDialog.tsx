import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, NO_TEMPLATE_CHOSEN, type OutcomeTexts, type PurchaseResult } from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type ApiMutation,
  type DialogProps,
  FormModal,
  GlobalErrors,
  SelectField,
  toast,
  useDialogSubmit,
} from '../../ui';
import { openInvoice } from './invoice';
import { useTemplatesOnOffer } from './queries';

const T = MESSAGES.purchase;

/** The payload field of the template choice: purchase's or up/downgrade's (000 §7). */
export type TemplateField = 'packageTemplateId' | 'newPackageTemplateId';
type ChoiceValues = Partial<Record<TemplateField, string>>;

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
  show,
  onHide,
  title,
  submitLabel,
  field,
  schema,
  mutation,
  texts: { successText, ...texts },
  currentTemplateId = null,
  animation,
  'data-testid': testId,
}: TemplateChoiceDialogProps<P>) {
  const templates = useTemplatesOnOffer(show);
  const choices = (templates.data?.elements ?? []).filter((t) => t.id !== currentTemplateId);
  const empty: ChoiceValues = { [field]: String(NO_TEMPLATE_CHOSEN) };
  const form = useForm<ChoiceValues>({
    // The select holds ids as text; the schema turns them into the payload's number.
    resolver: zodResolver(schema as z.ZodType<P, ChoiceValues>) as unknown as Resolver<ChoiceValues>,
    defaultValues: empty,
  });
  const { isSubmitting } = form.formState;
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    ...texts,
    mutation,
    form: { setError: form.setError, fieldNames: [field] },
  });

  const choose = form.handleSubmit(async (values) => {
    const outcome = await submit(schema.parse(values));
    if (!outcome.close) return;
    const invoiceId = outcome.result?.whmcsInvoiceId ?? null;
    if (invoiceId === null) {
      toast.success(successText);
      onHide();
      return;
    }
    // The request is made either way; the invoice stays payable from the billing pages if it cannot open now.
    const problem = await openInvoice(invoiceId);
    if (problem !== null) {
      toast.error(problem);
      onHide();
    }
  });

  return (
    <FormModal
      show={show}
      title={title}
      onHide={onHide}
      onSubmit={choose}
      submitting={isSubmitting}
      submitLabel={submitLabel}
      onExited={() => {
        form.reset(empty);
        clearErrors();
      }}
      animation={animation}
      data-testid={testId}
    >
      <SelectField
        form={form}
        idPrefix={`${field}-`}
        name={field}
        label={T.templateLabel}
        options={[
          { value: NO_TEMPLATE_CHOSEN, label: MESSAGES.signUp.templatePlaceholder },
          ...choices.map((t) => ({ value: t.id, label: t.name })),
        ]}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
