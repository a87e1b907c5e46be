import { zodResolver } from '@hookform/resolvers/zod';
import {
  CUSTOMER_FORM_LABELS,
  type CustomerAccount,
  type CustomerAccountEditForm,
  customerAccountEditSchema,
  MESSAGE_ROUTING,
  MESSAGES,
  showsProviderMachineControl,
} from '@portal/domain';
import { type Path, type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, SelectField, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import { useEditAccount } from './mutations';

const TEXT = MESSAGES.account;
const L = CUSTOMER_FORM_LABELS;

export interface EditAccountDialogProps {
  show: boolean;
  account: CustomerAccount;
  onHide: () => void;
  animation?: boolean;
}

function defaultsOf(account: CustomerAccount): CustomerAccountEditForm {
  return {
    companyName: account.companyName,
    userIdToBeAdmin: account.superAdminId ?? '',
    cpanelPluginEnabled: account.cpanelPluginEnabled,
    // 001 §6: hidden (and so not sent) for customers of the main brand.
    ...(showsProviderMachineControl(account.boltCustomer)
      ? { allowProviderMachineControl: account.allowProviderMachineControl }
      : {}),
  };
}

/**
 * 'Edit account details' (001 §2, §5): company name (max 50), the super admin chosen from the account's
 * active admins, the cPanel plugin flag, and allow provider machine control unless the customer is of the
 * main brand. Only an empty field name is a general message (001 §5).
 */
export function EditAccountDialog({ show, account, onHide, animation }: EditAccountDialogProps) {
  const form = useForm<CustomerAccountEditForm>({
    // The select holds the id as text; the schema turns it into the payload's number.
    resolver: zodResolver(customerAccountEditSchema) as unknown as Resolver<CustomerAccountEditForm>,
    defaultValues: defaultsOf(account),
  });
  const { isSubmitting } = form.formState;
  const showsControl = showsProviderMachineControl(account.boltCustomer);

  // Opening the dialog starts from the account as it is now.
  useOnOpen(show, () => form.reset(defaultsOf(account)));

  const fieldNames: Array<Path<CustomerAccountEditForm>> = [
    'companyName',
    'userIdToBeAdmin',
    'cpanelPluginEnabled',
    ...(showsControl ? (['allowProviderMachineControl'] as const) : []),
  ];
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useEditAccount(),
    successText: TEXT.edited,
    partialText: TEXT.updatedWithErrors,
    unknownErrorText: TEXT.unknownWhileEditing,
    form: {
      setError: form.setError,
      fieldNames,
      globalFieldNames: MESSAGE_ROUTING.accountEdit.globalFieldNames,
    },
  });
  // The resolver has checked the values; parsing again gives the payload type (the admin's id as a number).
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit(customerAccountEditSchema.parse(values));
    if (outcome.close) onHide();
  });

  return (
    <FormModal
      show={show}
      title={TEXT.editDialogTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={isSubmitting}
      submitLabel={TEXT.editSubmit}
      onExited={clearErrors}
      animation={animation}
      data-testid="edit-account-dialog"
    >
      <TextField form={form} idPrefix="account-" name="companyName" label={L.companyName} autoComplete="organization" />
      <SelectField
        form={form}
        idPrefix="account-"
        name="userIdToBeAdmin"
        label={L.userIdToBeAdmin}
        options={account.adminCandidates.map((c) => ({ value: c.id, label: `${c.fullName} (${c.email})` }))}
      />
      <CheckboxField form={form} idPrefix="account-" name="cpanelPluginEnabled" label={L.cpanelPluginEnabled} />
      {showsControl && (
        <CheckboxField
          form={form}
          idPrefix="account-"
          name="allowProviderMachineControl"
          label={L.allowProviderMachineControl}
        />
      )}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
