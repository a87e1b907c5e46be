import {
  MESSAGES,
  OUTCOME_TEXTS,
  STORAGE_ACCOUNT_DEFAULTS,
  STORAGE_ACCOUNT_FORM_LABELS,
  STORAGE_ACCOUNT_TYPE_TEXTS,
  STORAGE_ACCOUNT_TYPES,
  STORAGE_USER_API_TEXTS,
  STORAGE_USER_APIS,
  type StorageAccountDetail,
  type StorageAccountForm,
  storageAccountAddSchema,
  storageAccountEditSchema,
} from '@portal/domain';
import type { Path } from 'react-hook-form';
import {
  applyServerMessages,
  CheckboxField,
  type DialogProps,
  FormActionButton,
  FormDialog,
  SelectField,
  TextField,
  toast,
  useFormDialog,
} from '../../ui';
import { useSaveStorageAccount, useTestStorageAccount } from './mutations';

const TEXT = MESSAGES.storageAccountPages;
const L = STORAGE_ACCOUNT_FORM_LABELS;

export interface StorageAccountDialogProps extends DialogProps {
  /** The account being edited; absent when adding. */
  account?: StorageAccountDetail;
}

const FIELDS: ReadonlyArray<Path<StorageAccountForm>> = [
  'name',
  'type',
  'endpoint',
  'iamEndpoint',
  'region',
  'forcePathStyle',
  'userApi',
  'accessKeyId',
  'secretAccessKey',
  'requireObjectLock',
];

const TYPE_OPTIONS = STORAGE_ACCOUNT_TYPES.map((type) => ({ value: type, label: STORAGE_ACCOUNT_TYPE_TEXTS[type] }));
const USER_API_OPTIONS = STORAGE_USER_APIS.map((api) => ({ value: api, label: STORAGE_USER_API_TEXTS[api] }));

const defaultsOf = (account: StorageAccountDetail | undefined): StorageAccountForm =>
  account
    ? {
        name: account.name,
        type: account.type,
        endpoint: account.endpoint ?? '',
        iamEndpoint: account.iamEndpoint ?? '',
        region: account.region ?? '',
        forcePathStyle: account.forcePathStyle,
        userApi: account.userApi ?? STORAGE_ACCOUNT_DEFAULTS.userApi,
        accessKeyId: account.accessKeyId ?? '',
        secretAccessKey: '',
        requireObjectLock: account.requireObjectLock,
      }
    : STORAGE_ACCOUNT_DEFAULTS;

/**
 * Add or edit a storage account (ours: 001 §2 shows none), with Test connection for the form as it stands.
 * S3 fields show for an S3 account only; the secret is never shown, and left empty on edit it is kept.
 * The server tests an S3 account's connection before saving it: a failure lands on the field it concerns.
 */
export function StorageAccountDialog({ account, ...shown }: StorageAccountDialogProps) {
  const editing = account !== undefined;
  const { form, field, dialog } = useFormDialog({
    ...shown,
    schema: editing ? storageAccountEditSchema : storageAccountAddSchema,
    defaults: () => defaultsOf(account),
    mutation: useSaveStorageAccount(),
    variables: (payload) =>
      account ? { mode: 'edit' as const, storageAccountId: account.id, payload } : { mode: 'add' as const, payload },
    fieldNames: FIELDS,
    idPrefix: 'storage-account-',
    ...(editing ? OUTCOME_TEXTS.storageAccount.update : OUTCOME_TEXTS.storageAccount.add),
  });
  const s3 = form.watch('type') === 'S3';

  const tester = useTestStorageAccount();
  const test = form.handleSubmit(async (values) => {
    try {
      const { ok, envelope } = await tester.mutateAsync({
        payload: storageAccountEditSchema.parse(values),
        savedId: account?.id ?? null,
      });
      if (ok) {
        toast.success(TEXT.connectionSucceeded);
        return;
      }
      // Why it failed goes on its field, as when saving; a failure without a field is a toast.
      const global = applyServerMessages(envelope, { setError: form.setError, fieldNames: FIELDS });
      if (envelope.messages.length === 0) toast.error(TEXT.unknownWhileTestingConnection);
      else if (global[0]) toast.error(global[0].message);
    } catch {
      toast.error(MESSAGES.communicationError);
    }
  });

  const text = (name: Path<StorageAccountForm>, type: 'text' | 'password' = 'text', placeholder?: string) => (
    <TextField
      {...field}
      name={name}
      label={L[name as keyof typeof L]}
      type={type}
      autoComplete={type === 'password' ? 'new-password' : 'off'}
      placeholder={placeholder}
    />
  );
  return (
    <FormDialog
      dialog={dialog}
      title={editing ? TEXT.edit : TEXT.add}
      submitLabel={editing ? 'Save' : 'Add'}
      size="lg"
      data-testid="storage-account-dialog"
    >
      {text('name')}
      <SelectField {...field} name="type" label={L.type} options={TYPE_OPTIONS} disabled={editing} />
      {s3 && (
        <>
          {text('endpoint', 'text', 'https://s3.example.com')}
          {text('region')}
          <CheckboxField {...field} name="forcePathStyle" label={L.forcePathStyle} />
          <SelectField {...field} name="userApi" label={L.userApi} options={USER_API_OPTIONS} />
          {form.watch('userApi') === 'IAM' && text('iamEndpoint')}
          {text('accessKeyId')}
          {text('secretAccessKey', 'password', editing ? TEXT.secretKeptHint : undefined)}
        </>
      )}
      <CheckboxField {...field} name="requireObjectLock" label={L.requireObjectLock} />
      <FormActionButton run={test} data-testid="storage-account-test">
        {TEXT.testConnection}
      </FormActionButton>
    </FormDialog>
  );
}
