import { zodResolver } from '@hookform/resolvers/zod';
import {
  API_TOKEN_EXPIRY_OPTIONS,
  API_TOKEN_FORM_LABELS,
  API_TOKEN_MESSAGES,
  API_TOKEN_SCOPE_TEXTS,
  API_TOKEN_SCOPES,
  API_TOKEN_SECTION_TITLE,
  type ApiTokenCreateInput,
  type ApiTokenRow,
  apiTokenCreateSchema,
} from '@portal/domain';
import { useState } from 'react';
import { Alert, Button, Form, InputGroup } from 'react-bootstrap';
import { type Resolver, useForm } from 'react-hook-form';
import {
  BrowserPagedTable,
  ConfirmDialog,
  FormModal,
  GlobalErrors,
  localDateTime,
  SelectField,
  TextField,
  useDialogAction,
  useDialogSubmit,
  useOnOpen,
} from '../../ui';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from './apiTokens';

const TEXT = API_TOKEN_MESSAGES;
const DEFAULTS: ApiTokenCreateInput = { name: '', scope: 'READ_ONLY', expiresInDays: 30 };
const dateOf = (iso: string | null) => (iso ? localDateTime(iso) : 'Never');

function CreateTokenDialog(props: { show: boolean; onHide: () => void; onCreated: (token: string) => void }) {
  const form = useForm<ApiTokenCreateInput>({
    resolver: zodResolver(apiTokenCreateSchema) as unknown as Resolver<ApiTokenCreateInput>,
    defaultValues: DEFAULTS,
  });
  useOnOpen(props.show, () => form.reset(DEFAULTS));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useCreateApiToken(),
    partialText: TEXT.partial,
    unknownErrorText: TEXT.unknownWhileCreating,
    form: { setError: form.setError, fieldNames: ['name', 'scope', 'expiresInDays'] },
  });
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit(values);
    if (outcome.close && outcome.applied && outcome.result) props.onCreated(outcome.result.token);
  });
  return (
    <FormModal
      show={props.show}
      title="Create API token"
      onHide={props.onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel="Create"
      onExited={clearErrors}
      data-testid="api-token-dialog"
    >
      <TextField form={form} idPrefix="api-token-" name="name" label={API_TOKEN_FORM_LABELS.name} />
      <SelectField
        form={form}
        idPrefix="api-token-"
        name="scope"
        label={API_TOKEN_FORM_LABELS.scope}
        options={API_TOKEN_SCOPES.map((scope) => ({ value: scope, label: API_TOKEN_SCOPE_TEXTS[scope] }))}
      />
      <SelectField
        form={form}
        idPrefix="api-token-"
        name="expiresInDays"
        label={API_TOKEN_FORM_LABELS.expiresInDays}
        options={API_TOKEN_EXPIRY_OPTIONS}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}

/** The new token, once: with a copy button, since it cannot be shown again. */
function NewToken({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Alert variant="success" data-testid="api-token-created" onClose={onDone} dismissible>
      <p>{TEXT.created}</p>
      <InputGroup>
        <Form.Control readOnly value={token} aria-label="New API token" className="font-monospace" />
        <Button
          variant="outline-secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(token);
            setCopied(true);
          }}
        >
          {copied ? TEXT.copied : 'Copy'}
        </Button>
      </InputGroup>
    </Alert>
  );
}

function RevokeDialog({ token, onHide }: { token: ApiTokenRow | null; onHide: () => void }) {
  const action = useDialogAction({
    mutation: useRevokeApiToken(),
    variables: () => token?.id ?? null,
    onHide,
    onOutcome: (outcome) => outcome.applied && onHide(),
    successText: TEXT.revoked,
    partialText: TEXT.partial,
    unknownErrorText: TEXT.unknownWhileRevoking,
  });
  return (
    <ConfirmDialog
      show={token !== null}
      onHide={onHide}
      {...action}
      title="Revoke API token"
      confirmLabel="Revoke"
      variant="danger"
      data-testid="api-token-revoke-dialog"
    >
      <p className="mb-0">{token ? TEXT.confirmRevoke(token.name) : ''}</p>
    </ConfirmDialog>
  );
}

/** The profile's personal API tokens (issue 18): create, see once, list with last use, revoke. */
export function ApiTokensSection() {
  const tokens = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenRow | null>(null);
  return (
    <>
      <p className="text-body-secondary">{TEXT.intro}</p>
      {created && <NewToken token={created} onDone={() => setCreated(null)} />}
      <Button className="mb-3" onClick={() => setCreating(true)}>
        Create API token
      </Button>
      <BrowserPagedTable<ApiTokenRow>
        aria-label={API_TOKEN_SECTION_TITLE}
        columns={[
          { key: 'name', header: 'Name', render: (row) => row.name },
          { key: 'scope', header: 'Access', render: (row) => API_TOKEN_SCOPE_TEXTS[row.scope] },
          { key: 'hint', header: 'Token', render: (row) => <code>{row.hint}…</code> },
          { key: 'createdAt', header: 'Created', render: (row) => dateOf(row.createdAt) },
          { key: 'expiresAt', header: 'Expires', render: (row) => dateOf(row.expiresAt) },
          { key: 'lastUsedAt', header: 'Last used', render: (row) => dateOf(row.lastUsedAt) },
          {
            key: 'actions',
            header: '',
            render: (row) => (
              <Button size="sm" variant="outline-danger" onClick={() => setRevoking(row)}>
                Revoke
              </Button>
            ),
          },
        ]}
        rows={tokens.data?.elements ?? []}
        rowKey={(row) => row.id}
        size={10}
        loading={tokens.isPending}
        emptyText={TEXT.none}
        data-testid="api-tokens-table"
      />
      <CreateTokenDialog
        show={creating}
        onHide={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
      <RevokeDialog token={revoking} onHide={() => setRevoking(null)} />
    </>
  );
}
