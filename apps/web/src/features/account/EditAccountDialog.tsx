import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACCOUNT_PATH,
  CUSTOMER_FORM_LABELS,
  type CustomerAccount,
  type CustomerAccountEditForm,
  customerAccountEditSchema,
  MESSAGE_ROUTING,
  MESSAGES,
  type ServerMessage,
  showsProviderMachineControl,
} from '@portal/domain';
import { useState } from 'react';
import { type Path, type Resolver, useForm } from 'react-hook-form';
import { call } from '../../app/api';
import {
  CheckboxField,
  FormModal,
  GlobalErrors,
  handleSubmitResult,
  SelectField,
  TextField,
  useOnOpen,
} from '../../ui';

const TEXT = MESSAGES.account;
const L = CUSTOMER_FORM_LABELS;

export interface EditAccountDialogProps {
  show: boolean;
  account: CustomerAccount;
  onHide: () => void;
  /** The server changed the account (also when it reported problems); null when it sent no account back. */
  onChanged: (account: CustomerAccount | null) => void;
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
export function EditAccountDialog({ show, account, onHide, onChanged, animation }: EditAccountDialogProps) {
  const [globalErrors, setGlobalErrors] = useState<ServerMessage[]>([]);
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
  const submit = form.handleSubmit(async (values) => {
    setGlobalErrors([]);
    const outcome = await handleSubmitResult(call<CustomerAccount>('PUT', ACCOUNT_PATH, values), {
      successText: TEXT.edited,
      partialText: TEXT.updatedWithErrors,
      unknownErrorText: TEXT.unknownWhileEditing,
      form: {
        setError: form.setError,
        fieldNames,
        globalFieldNames: MESSAGE_ROUTING.accountEdit.globalFieldNames,
      },
    });
    setGlobalErrors(outcome.globalErrors);
    if (outcome.applied) onChanged(outcome.result);
    if (outcome.close) onHide();
  });

  return (
    <FormModal
      show={show}
      title={TEXT.editDialogTitle}
      onHide={onHide}
      onSubmit={submit}
      submitting={isSubmitting}
      submitLabel={TEXT.editSubmit}
      onExited={() => setGlobalErrors([])}
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
