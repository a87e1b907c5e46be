import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AdminAudience,
  MESSAGE_ROUTING,
  MESSAGES,
  onLimitMachinesToggled,
  PACKAGE_TEMPLATE_DEFAULTS,
  PACKAGE_TEMPLATE_LABELS,
  type PackageTemplateAddForm,
  packageTemplateAddSchema,
  STORAGE_QUOTA_UNITS,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { type Path, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, SelectField, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import { useAddTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;
const L = PACKAGE_TEMPLATE_LABELS;

export interface AddTemplateDialogProps {
  show: boolean;
  audience: AdminAudience;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Add package template (000 §5): name, storage quota (placeholder in MBs) and unit, and 'Limit number of
 * machines?' (ticked sets 10, unticked 0 and hides the number). The provider also chooses 'For resellers only'
 * (ours); a reseller's own templates are for its customers, so its form has no such switch.
 * Not dismissable while submitting.
 */
export function AddTemplateDialog({ show, audience, onHide, animation }: AddTemplateDialogProps) {
  const form = useForm<PackageTemplateAddForm>({
    resolver: zodResolver(packageTemplateAddSchema) as unknown as Resolver<PackageTemplateAddForm>,
    defaultValues: PACKAGE_TEMPLATE_DEFAULTS,
  });
  const { isSubmitting } = form.formState;
  useOnOpen(show, () => form.reset(PACKAGE_TEMPLATE_DEFAULTS));
  const limited = form.watch('limitNumberOfMachines') !== false;

  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useAddTemplate(audience),
    successText: TEXT.created,
    partialText: TEXT.createdWithErrors,
    unknownErrorText: TEXT.createFailed,
    form: {
      setError: form.setError,
      fieldNames: ['name', 'storageQuota', 'storageQuotaUnit', 'noOfMachinesLimit', 'resellersOnly'],
      globalFieldNames: MESSAGE_ROUTING.packageTemplateAdd.globalFieldNames,
    },
  });
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit(packageTemplateAddSchema.parse(values));
    if (outcome.close) onHide();
  });

  const limitToggle = form.register('limitNumberOfMachines');
  return (
    <FormModal
      show={show}
      title={TEXT.addTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={isSubmitting}
      submitLabel={TEXT.addSubmit}
      onExited={clearErrors}
      animation={animation}
      data-testid="add-template-dialog"
    >
      <TextField form={form} idPrefix="template-" name="name" label={L.name} autoComplete="off" />
      <TextField
        form={form}
        idPrefix="template-"
        name="storageQuota"
        label={L.storageQuota}
        type="number"
        placeholder={L.storageQuotaPlaceholder}
      />
      <SelectField
        form={form}
        idPrefix="template-"
        name="storageQuotaUnit"
        label={L.storageQuotaUnit}
        options={STORAGE_QUOTA_UNITS.map((unit) => ({ value: unit, label: unit }))}
      />
      <Form.Group className="mb-3" controlId="template-limitNumberOfMachines">
        <Form.Check
          type="checkbox"
          label={TEXT.limitMachinesLabel}
          {...limitToggle}
          onChange={(event) => form.reset(onLimitMachinesToggled(form.getValues(), event.target.checked))}
        />
      </Form.Group>
      {limited && (
        <TextField
          form={form}
          idPrefix="template-"
          name="noOfMachinesLimit"
          label={L.noOfMachinesLimit}
          type="number"
        />
      )}
      {audience === 'provider' && <ResellersOnlyField form={form} idPrefix="template-" />}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}

/** The provider's audience switch of a template (ours), with what it means under it. */
export function ResellersOnlyField<F extends { resellersOnly?: boolean | 'true' | 'false' | undefined }>({
  form,
  idPrefix,
}: {
  form: UseFormReturn<F>;
  idPrefix: string;
}) {
  return (
    <>
      <CheckboxField form={form} idPrefix={idPrefix} name={'resellersOnly' as Path<F>} label={L.resellersOnly} />
      <Form.Text as="p" className="mt-n2" muted>
        {TEXT.audience.hint}
      </Form.Text>
    </>
  );
}
