import {
  BILLING_SERVER_DEFAULTS,
  BILLING_SERVER_LABELS,
  type BillingServerForm,
  type BillingServerRow,
  billingConnectionSucceeded,
  billingServerAddSchema,
  billingServerEditSchema,
  MESSAGES,
  OUTCOME_TEXTS,
} from '@portal/domain';
import type { Path } from 'react-hook-form';
import {
  applyServerMessages,
  type DialogProps,
  type FieldRouting,
  FormActionButton,
  FormDialog,
  TextField,
  toast,
  useFormDialog,
} from '../../ui';
import { useSaveBillingServer, useTestBillingServer } from './mutations';

const TEXT = MESSAGES.billing;
const L = BILLING_SERVER_LABELS;

export interface BillingServerDialogProps extends DialogProps {
  /** The server being edited; absent when adding. */
  server?: BillingServerRow;
}

const FIELDS: Array<{ name: Path<BillingServerForm>; type: 'text' | 'number' | 'password' }> = [
  { name: 'description', type: 'text' },
  { name: 'region', type: 'text' },
  { name: 'whmcsHost', type: 'text' },
  { name: 'whmcsPort', type: 'number' },
  { name: 'whmcsPath', type: 'text' },
  { name: 'whmcsIdentifier', type: 'text' },
  { name: 'whmcsSecret', type: 'password' },
  { name: 'whmcsApiAccessKey', type: 'password' },
];
const SECRET_FIELDS: ReadonlyArray<Path<BillingServerForm>> = ['whmcsSecret', 'whmcsApiAccessKey'];

const defaultsOf = (server: BillingServerRow | undefined): BillingServerForm =>
  server
    ? {
        description: server.description,
        region: server.region,
        whmcsHost: server.whmcsHost,
        whmcsPort: server.whmcsPort,
        whmcsPath: server.whmcsPath,
        whmcsIdentifier: server.whmcsIdentifier,
        whmcsSecret: '',
        whmcsApiAccessKey: '',
      }
    : BILLING_SERVER_DEFAULTS;

/**
 * Add or edit a billing host server (001 §2, §3), with Test connection for the form as it stands. The
 * secrets are never shown: when editing, an empty secret field keeps the stored value.
 */
export function BillingServerDialog({ server, ...shown }: BillingServerDialogProps) {
  const editing = server !== undefined;
  const { form, field, dialog } = useFormDialog({
    ...shown,
    schema: editing ? billingServerEditSchema : billingServerAddSchema,
    defaults: () => defaultsOf(server),
    mutation: useSaveBillingServer(),
    variables: (payload) =>
      server ? { mode: 'edit' as const, whmcsServerId: server.id, payload } : { mode: 'add' as const, payload },
    fieldNames: FIELDS.map((f) => f.name),
    idPrefix: 'billing-server-',
    ...(editing ? OUTCOME_TEXTS.billingServer.update : OUTCOME_TEXTS.billingServer.add),
  });

  const tester = useTestBillingServer();
  const test = form.handleSubmit((values) =>
    testConnection(
      tester.mutateAsync,
      { kind: 'form', payload: billingServerEditSchema.parse(values), savedId: server?.id ?? null },
      { setError: form.setError, fieldNames: FIELDS.map((f) => f.name) },
    ),
  );

  return (
    <FormDialog
      dialog={dialog}
      title={editing ? TEXT.editServer : TEXT.addServer}
      submitLabel={editing ? 'Save' : 'Add'}
      data-testid="billing-server-dialog"
    >
      {FIELDS.map((entry) => (
        <TextField
          key={entry.name}
          {...field}
          name={entry.name}
          label={L[entry.name as keyof typeof L]}
          type={entry.type}
          autoComplete={entry.type === 'password' ? 'new-password' : 'off'}
          placeholder={editing && SECRET_FIELDS.includes(entry.name) ? TEXT.secretKeptHint : undefined}
        />
      ))}
      <FormActionButton run={test} data-testid="billing-server-test">
        {TEXT.testConnection}
      </FormActionButton>
    </FormDialog>
  );
}

/**
 * Runs a connection test and says how it went in a toast: the WHMCS version, or why it failed. With a form's
 * routing, a message naming a field of the form (a secret to enter again, say) goes on that field instead.
 */
export async function testConnection(
  run: ReturnType<typeof useTestBillingServer>['mutateAsync'],
  test: Parameters<ReturnType<typeof useTestBillingServer>['mutateAsync']>[0],
  routing?: FieldRouting<BillingServerForm>,
): Promise<void> {
  try {
    const { ok, envelope } = await run(test);
    if (ok && envelope.result) {
      toast.success(billingConnectionSucceeded(envelope.result.version));
      return;
    }
    const global = routing ? applyServerMessages(envelope, routing) : envelope.messages;
    if (envelope.messages.length === 0) toast.error(TEXT.unknownWhileTestingConnection);
    else if (global[0]) toast.error(global[0].message);
  } catch (error) {
    toast.error(error instanceof Error ? error.message : TEXT.unknownWhileTestingConnection);
  }
}
