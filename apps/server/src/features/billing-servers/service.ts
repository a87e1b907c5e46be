import {
  BILLING_SERVER_LABELS,
  type BillingConnectionResult,
  type BillingServerPayload,
  type BillingServerRow,
  billingServerInUse,
  MESSAGES,
  sameDestination,
  whmcsDestination,
} from '@portal/domain';
import { connectionOf } from '../../billing/directory.js';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../http/errors.js';
import { secretsFor } from '../../net/stored-secrets.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import { createWhmcsClient, type WhmcsClientOptions } from '../../platform/whmcs.js';
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

  /** Whether a form still goes where the server's stored secret and access key were saved for. */
  function sameAddress(form: BillingServerPayload, current: BillingServerRecord | null): boolean {
    const asked = whmcsDestination(form);
    const stored = current && whmcsDestination(current);
    return asked !== null && stored !== null && sameDestination(asked, stored);
  }

  /**
   * The stored values of a form; an empty secret or access key keeps what `current` has, but only while the
   * form keeps the address they were saved for (else a 400 on the field asks for them again).
   */
  function valuesOf(form: BillingServerPayload, current: BillingServerRecord | null): BillingServerValues {
    const sealed = secretsFor(
      sameAddress(form, current),
      {
        whmcsSecret: {
          label: BILLING_SERVER_LABELS.whmcsSecret,
          given: form.whmcsSecret,
          stored: current?.whmcsSecretEncrypted || null,
          required: true,
        },
        whmcsApiAccessKey: {
          label: BILLING_SERVER_LABELS.whmcsApiAccessKey,
          given: form.whmcsApiAccessKey,
          stored: current?.whmcsApiAccessKeyEncrypted ?? null,
          required: false,
        },
      },
      (plain) => secrets.encrypt(plain),
    );
    return {
      description: form.description,
      region: form.region,
      whmcsHost: form.whmcsHost,
      whmcsPort: form.whmcsPort,
      whmcsPath: form.whmcsPath,
      whmcsIdentifier: form.whmcsIdentifier,
      whmcsSecretEncrypted: sealed.whmcsSecret ?? '',
      whmcsApiAccessKeyEncrypted: sealed.whmcsApiAccessKey,
    };
  }

  async function ping(record: BillingServerValues): Promise<BillingConnectionResult> {
    try {
      return { version: await createWhmcsClient(connectionOf(record, secrets), deps.client).ping() };
    } catch (error) {
      throw outsideServiceAnswer(error);
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
    /** Tests the form as it stands; when it edits a saved server at its saved address, empty secrets are the stored ones. */
    async testForm(form: BillingServerPayload, savedId: number | null): Promise<BillingConnectionResult> {
      const current = savedId === null ? null : await found(savedId);
      return ping(valuesOf(form, current));
    },
  };
}
export type BillingServerService = ReturnType<typeof createBillingServerService>;
