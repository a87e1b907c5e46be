import { zodResolver } from '@hookform/resolvers/zod';
import {
  BILLING_SERVER_DEFAULTS,
  BILLING_SERVER_LABELS,
  type BillingServerForm,
  type BillingServerRow,
  billingConnectionSucceeded,
  billingServerAddSchema,
  billingServerEditSchema,
  MESSAGES,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { type Path, type Resolver, useForm } from 'react-hook-form';
import {
  applyServerMessages,
  type FieldRouting,
  FormModal,
  GlobalErrors,
  TextField,
  toast,
  useDialogSubmit,
  useOnOpen,
} from '../../ui';
import { useSaveBillingServer, useTestBillingServer } from './mutations';

const TEXT = MESSAGES.billing;
const L = BILLING_SERVER_LABELS;

export interface BillingServerDialogProps {
  show: boolean;
  /** The server being edited; absent when adding. */
  server?: BillingServerRow;
  onHide: () => void;
  animation?: boolean;
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
export function BillingServerDialog({ show, server, onHide, animation }: BillingServerDialogProps) {
  const editing = server !== undefined;
  const schema = editing ? billingServerEditSchema : billingServerAddSchema;
  const form = useForm<BillingServerForm>({
    resolver: zodResolver(schema) as unknown as Resolver<BillingServerForm>,
    defaultValues: defaultsOf(server),
  });
  useOnOpen(show, () => form.reset(defaultsOf(server)));
  const routing: FieldRouting<BillingServerForm> = { setError: form.setError, fieldNames: FIELDS.map((f) => f.name) };
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useSaveBillingServer(),
    successText: editing ? TEXT.serverUpdated : TEXT.serverAdded,
    partialText: editing ? TEXT.serverUpdatedWithErrors : TEXT.serverAddedWithErrors,
    unknownErrorText: editing ? TEXT.unknownWhileUpdatingServer : TEXT.unknownWhileAddingServer,
    form: routing,
  });
  const save = form.handleSubmit(async (values) => {
    const payload = schema.parse(values);
    const outcome = await submit(
      server ? { mode: 'edit', whmcsServerId: server.id, payload } : { mode: 'add', payload },
    );
    if (outcome.close) onHide();
  });

  const tester = useTestBillingServer();
  const [testing, setTesting] = useState(false);
  const test = form.handleSubmit(async (values) => {
    setTesting(true);
    try {
      await testConnection(
        tester.mutateAsync,
        { kind: 'form', payload: billingServerEditSchema.parse(values), savedId: server?.id ?? null },
        routing,
      );
    } finally {
      setTesting(false);
    }
  });

  return (
    <FormModal
      show={show}
      title={editing ? TEXT.editServer : TEXT.addServer}
      onHide={onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel={editing ? 'Save' : 'Add'}
      onExited={clearErrors}
      animation={animation}
      data-testid="billing-server-dialog"
    >
      {FIELDS.map((field) => (
        <TextField
          key={field.name}
          form={form}
          idPrefix="billing-server-"
          name={field.name}
          label={L[field.name as keyof typeof L]}
          type={field.type}
          autoComplete={field.type === 'password' ? 'new-password' : 'off'}
          placeholder={editing && SECRET_FIELDS.includes(field.name) ? TEXT.secretKeptHint : undefined}
        />
      ))}
      <Form.Group className="mb-3">
        <Button
          variant="outline-secondary"
          onClick={() => void test()}
          disabled={testing}
          data-testid="billing-server-test"
        >
          {TEXT.testConnection}
        </Button>
      </Form.Group>
      <GlobalErrors messages={globalErrors} />
    </FormModal>
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
