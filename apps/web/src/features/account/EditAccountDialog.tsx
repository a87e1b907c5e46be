import {
  CUSTOMER_FORM_LABELS,
  type CustomerAccount,
  type CustomerAccountEditForm,
  customerAccountEditSchema,
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  showsProviderMachineControl,
} from '@portal/domain';
import { CheckboxField, type DialogProps, FormDialog, SelectField, TextField, useFormDialog } from '../../ui';
import { useEditAccount } from './mutations';

const TEXT = MESSAGES.account;
const L = CUSTOMER_FORM_LABELS;

export interface EditAccountDialogProps extends DialogProps {
  account: CustomerAccount;
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
export function EditAccountDialog({ account, ...shown }: EditAccountDialogProps) {
  const showsControl = showsProviderMachineControl(account.boltCustomer);
  const { field, dialog } = useFormDialog({
    ...shown,
    // The select holds the id as text; the schema turns it into the payload's number.
    schema: customerAccountEditSchema,
    defaults: () => defaultsOf(account),
    mutation: useEditAccount(),
    variables: (payload) => payload,
    fieldNames: [
      'companyName',
      'userIdToBeAdmin',
      'cpanelPluginEnabled',
      ...(showsControl ? (['allowProviderMachineControl'] as const) : []),
    ],
    routing: MESSAGE_ROUTING.accountEdit,
    idPrefix: 'account-',
    ...OUTCOME_TEXTS.account.edit,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.editDialogTitle}
      submitLabel={TEXT.editSubmit}
      data-testid="edit-account-dialog"
    >
      <TextField {...field} name="companyName" label={L.companyName} autoComplete="organization" />
      <SelectField
        {...field}
        name="userIdToBeAdmin"
        label={L.userIdToBeAdmin}
        options={account.adminCandidates.map((c) => ({ value: c.id, label: `${c.fullName} (${c.email})` }))}
      />
      <CheckboxField {...field} name="cpanelPluginEnabled" label={L.cpanelPluginEnabled} />
      {showsControl && (
        <CheckboxField {...field} name="allowProviderMachineControl" label={L.allowProviderMachineControl} />
      )}
    </FormDialog>
  );
}
