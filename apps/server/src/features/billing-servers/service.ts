import {
  BILLING_SERVER_LABELS,
  type BillingConnectionResult,
  type BillingServerPayload,
  type BillingServerRow,
  billingServerInUse,
  fieldRequired,
  MESSAGES,
} from '@portal/domain';
import { connectionOf } from '../../billing/directory.js';
import { billingFailure } from '../../billing/errors.js';
import { createWhmcsClient, type WhmcsClientOptions } from '../../billing/whmcs-client.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { SecretBox } from '../../secrets.js';
import { presentBillingServer } from './present.js';
import { type BillingServerRecord, type BillingServerValues, createBillingServersRepo } from './repo.js';

/** The provider's billing host servers: add, edit, delete, test connection (001 §2). Secrets sealed with MASTER_KEY. */
export function createBillingServerService(deps: { db: Db; secrets: SecretBox; client: WhmcsClientOptions }) {
  const repo = createBillingServersRepo(deps.db);
  const { secrets } = deps;

  async function found(id: number): Promise<BillingServerRecord> {
    const record = await repo.byId(id);
    if (!record) throw notFound(MESSAGES.billing.serverNotFound);
    return record;
  }

  /** The stored values of a form; an empty secret or access key keeps what `current` has. */
  function valuesOf(form: BillingServerPayload, current: BillingServerRecord | null): BillingServerValues {
    return {
      description: form.description,
      region: form.region,
      whmcsHost: form.whmcsHost,
      whmcsPort: form.whmcsPort,
      whmcsPath: form.whmcsPath,
      whmcsIdentifier: form.whmcsIdentifier,
      whmcsSecretEncrypted: form.whmcsSecret
        ? secrets.encrypt(form.whmcsSecret)
        : (current?.whmcsSecretEncrypted ?? ''),
      whmcsApiAccessKeyEncrypted: form.whmcsApiAccessKey
        ? secrets.encrypt(form.whmcsApiAccessKey)
        : (current?.whmcsApiAccessKeyEncrypted ?? null),
    };
  }

  async function ping(record: BillingServerValues): Promise<BillingConnectionResult> {
    try {
      return { version: await createWhmcsClient(connectionOf(record, secrets), deps.client).ping() };
    } catch (error) {
      throw billingFailure(error);
    }
  }

  return {
    async list(): Promise<BillingServerRow[]> {
      return (await repo.list()).map(presentBillingServer);
    },
    async add(form: BillingServerPayload): Promise<BillingServerRow> {
      const id = await repo.insert(valuesOf(form, null));
      return presentBillingServer(await found(id));
    },
    async edit(id: number, form: BillingServerPayload): Promise<BillingServerRow> {
      const current = await found(id);
      await repo.update(id, valuesOf(form, current));
      return presentBillingServer(await found(id));
    },
    async remove(id: number): Promise<void> {
      const { deleted, inUse } = await deps.db.transaction((tx) => createBillingServersRepo(tx).deleteUnused(id));
      if (inUse > 0) throw conflict(billingServerInUse(inUse));
      if (!deleted) throw notFound(MESSAGES.billing.serverNotFound);
    },
    async testSaved(id: number): Promise<BillingConnectionResult> {
      return ping(await found(id));
    },
    /** Tests the form as it stands; when it edits a saved server, empty secrets are the stored ones. */
    async testForm(form: BillingServerPayload, savedId: number | null): Promise<BillingConnectionResult> {
      const current = savedId === null ? null : await found(savedId);
      const values = valuesOf(form, current);
      if (!values.whmcsSecretEncrypted)
        throw badRequest(fieldRequired(BILLING_SERVER_LABELS.whmcsSecret), 'whmcsSecret');
      return ping(values);
    },
  };
}
export type BillingServerService = ReturnType<typeof createBillingServerService>;
