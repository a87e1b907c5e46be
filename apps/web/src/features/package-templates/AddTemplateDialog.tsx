import {
  type AdminAudience,
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  onLimitMachinesToggled,
  PACKAGE_TEMPLATE_DEFAULTS,
  PACKAGE_TEMPLATE_LABELS,
  type PackageTemplateAddForm,
  packageTemplateAddSchema,
  STORAGE_QUOTA_UNITS,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import type { Path, UseFormReturn } from 'react-hook-form';
import { CheckboxField, type DialogProps, FormDialog, SelectField, TextField, useFormDialog } from '../../ui';
import { useAddTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;
const L = PACKAGE_TEMPLATE_LABELS;

export interface AddTemplateDialogProps extends DialogProps {
  audience: AdminAudience;
}

/**
 * Add package template (000 §5): name, storage quota (placeholder in MBs) and unit, and 'Limit number of
 * machines?' (ticked sets 10, unticked 0 and hides the number). The provider also chooses 'For resellers only'
 * (ours); a reseller's own templates are for its customers, so its form has no such switch.
 * Not dismissable while submitting.
 */
export function AddTemplateDialog({ audience, ...shown }: AddTemplateDialogProps) {
  const { form, field, dialog } = useFormDialog({
    ...shown,
    schema: packageTemplateAddSchema,
    defaults: (): PackageTemplateAddForm => PACKAGE_TEMPLATE_DEFAULTS,
    mutation: useAddTemplate(audience),
    variables: (payload) => payload,
    fieldNames: ['name', 'storageQuota', 'storageQuotaUnit', 'noOfMachinesLimit', 'resellersOnly'],
    routing: MESSAGE_ROUTING.packageTemplateAdd,
    idPrefix: 'template-',
    ...OUTCOME_TEXTS.packageTemplate.create,
  });
  const limited = form.watch('limitNumberOfMachines') !== false;
  const limitToggle = form.register('limitNumberOfMachines');
  return (
    <FormDialog dialog={dialog} title={TEXT.addTitle} submitLabel={TEXT.addSubmit} data-testid="add-template-dialog">
      <TextField {...field} name="name" label={L.name} autoComplete="off" />
      <TextField
        {...field}
        name="storageQuota"
        label={L.storageQuota}
        type="number"
        placeholder={L.storageQuotaPlaceholder}
      />
      <SelectField
        {...field}
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
      {limited && <TextField {...field} name="noOfMachinesLimit" label={L.noOfMachinesLimit} type="number" />}
      {audience === 'provider' && <ResellersOnlyField {...field} />}
    </FormDialog>
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
