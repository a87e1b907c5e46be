import {
  ACCOUNT_MAIL_KINDS,
  type Actor,
  type AvailableStorageItems,
  isProviderAdmin,
  MESSAGES,
  type MyPackageRequestRow,
  mayChange,
  PACKAGE_REQUEST_TYPE_TEXTS,
  type PackageRequestRow,
  type Paged,
  type Paging,
  packageQuotaInMb,
  packageRequestDeclinedMail,
  packageSizesFromTemplate,
  pageOf,
  requestApprovalSchema,
  type StorageItemType,
} from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import { badRequest, conflict, forbidden, notFound, parseWith } from '../../http/errors.js';
import type { MailDelivery } from '../../mail/delivery.js';
import type { BackupStateService } from '../backup-state/service.js';
import type { PreparedLocation, StorageLocationService } from '../storage-locations/service.js';
import { presentMyRequest, presentRequest } from './present.js';
import {
  createPackageRequestsRepo,
  type HostPackage,
  type PackageRequestsRepo,
  type RequestRecord,
  type RequestScope,
} from './repo.js';

/** A package's name is at most 50 (000 §9); one made from a template takes the template's name. */
const PACKAGE_NAME_MAX = 50;

/** The provider approves its direct customers' requests; a reseller admin its children's (000 §6). */
function scopeOf(actor: Actor): RequestScope {
  if (isProviderAdmin(actor)) return null;
  if (actor.customerId === null) throw forbidden();
  return actor.customerId;
}

/** Which storage items a request's approval links (000 §3): none for a change request. */
function storageItemsType(request: RequestRecord): StorageItemType | null {
  if (request.requestType === 'CHANGE_PACKAGE') return null;
  if (request.parentResellerCustomerId !== null) return 'RESELLER_BACKUP_PACKAGE';
  return request.requestType === 'NEW_SIGNUP' ? 'STORAGE_ACCOUNT' : 'EXISTING_STORAGE_LOCATION';
}

async function availableItems(
  repo: PackageRequestsRepo,
  request: RequestRecord,
): Promise<AvailableStorageItems | null> {
  const type = storageItemsType(request);
  switch (type) {
    case null:
      return null;
    case 'STORAGE_ACCOUNT':
      return { storageItemsType: type, storageItems: await repo.storageAccounts() };
    case 'EXISTING_STORAGE_LOCATION':
      return {
        storageItemsType: type,
        storageItems: (await repo.locationsOf([request.customerId])).map(({ id, name, capacityInBytes }) => ({
          id,
          name,
          capacityInBytes,
        })),
      };
    case 'RESELLER_BACKUP_PACKAGE':
      return {
        storageItemsType: type,
        storageItems: await repo.resellerPackages(request.parentResellerCustomerId ?? 0),
      };
  }
}

/** A reseller child's folder in the reseller package's bucket: its own, below the parent's folder. */
function resellerSubfolder(request: RequestRecord, host: HostPackage): string {
  const folder = `c${request.customerId}`;
  return host.subfolder ? `${host.subfolder.replace(/\/+$/, '')}/${folder}` : folder;
}

/** Where an approved package goes: a storage location, inside a reseller package or not. */
interface Place {
  storageLocationId: number;
  parentResellerPackageId: number | null;
}

/**
 * Package requests (000 §2–§4, §7): the provider's and resellers' tables of pending requests, approve and
 * decline, the customer's own list, and the approval of a paid request for billing. Each decision is one
 * transaction that first locks the request row and ends with a conditional update from PENDING, so a
 * request is decided once: a second approve or a decline after it is refused and changes nothing.
 */
export function createPackageRequestService(deps: {
  db: Db;
  repo: PackageRequestsRepo;
  /** The backup state on the decision's transaction (customer and package statuses and their read model). */
  backupStateOn: (tx: Executor) => BackupStateService;
  /** Told after a change request's approval commits: the package's quota changed (OVER_QUOTA or ACTIVE). */
  onPackageQuotaChanged: (packageId: number) => Promise<void>;
  mail: Pick<MailDelivery, 'queue'>;
  onMailError: (error: unknown) => void;
  /** Billing's check of the customer's paid invoices, which may approve its requests; before they are listed. */
  checkPaidInvoices: (customerId: number) => Promise<unknown>;
  /** New locations (issue 16): their bucket, storage user and key made at the service, their rows on the approval's transaction. */
  locations: Pick<StorageLocationService, 'prepare'>;
  now?: () => Date;
}) {
  const { db, repo } = deps;
  const now = deps.now ?? (() => new Date());

  function changer(actor: Actor): RequestScope {
    if (!mayChange(actor)) throw forbidden();
    return scopeOf(actor);
  }

  /**
   * The location an approval needs made, prepared at the storage service before the approval's transaction
   * (a NEW_SIGNUP's new bucket of the chosen account, or a reseller child's folder in the reseller package's
   * bucket); null when the approval makes none, or the request or item does not qualify (the transaction
   * then refuses it with its message). Read without a lock: the transaction checks everything again.
   */
  async function prepareLocation(
    scope: RequestScope,
    requestId: number,
    body: unknown,
  ): Promise<PreparedLocation | null> {
    const request = await repo.lock(scope, requestId);
    if (request?.status !== 'PENDING') return null;
    const parsed = requestApprovalSchema(request.requestType).safeParse(body ?? {});
    const itemId = parsed.success ? parsed.data.storageItemId : undefined;
    const offered = await availableItems(repo, request);
    if (itemId === undefined || !offered?.storageItems.some((i) => i.id === itemId)) return null;
    if (offered.storageItemsType === 'STORAGE_ACCOUNT') {
      return deps.locations.prepare({ customerId: request.customerId, storageAccountId: itemId });
    }
    if (offered.storageItemsType !== 'RESELLER_BACKUP_PACKAGE') return null;
    const host = await repo.hostPackage(itemId);
    if (!host) return null;
    const subfolder = resellerSubfolder(request, host);
    return deps.locations.prepare({ customerId: request.customerId, bucketId: host.bucketId, subfolder });
  }

  /** The location the approval prepared, written on its transaction. */
  async function preparedLocation(tx: Executor, prepared: PreparedLocation | null): Promise<number> {
    if (!prepared) throw badRequest(MESSAGES.packageRequest.storageItemNotAvailable, 'storageItemId');
    return prepared.insert(tx);
  }

  /** Inside a reseller package: the parent's bucket, the child's own subfolder below the parent's folder. */
  async function resellerPlace(tx: Executor, hostId: number, prepared: PreparedLocation | null): Promise<Place> {
    const host = await createPackageRequestsRepo(tx).hostPackage(hostId);
    if (!host) throw badRequest(MESSAGES.packageRequest.storageItemNotAvailable, 'storageItemId');
    return { storageLocationId: await preparedLocation(tx, prepared), parentResellerPackageId: host.id };
  }

  /**
   * What approving does, on the request's transaction: a new signup's location, first package (APPROVED:
   * its owner names and initialises it) and active customer; an additional package placed and APPROVED;
   * a change request's new quota. `item` is the storage item chosen, or null for a change request.
   */
  async function apply(
    tx: Executor,
    request: RequestRecord,
    item: { type: StorageItemType; id: number } | Place | null,
    prepared: PreparedLocation | null = null,
  ) {
    const requests = createPackageRequestsRepo(tx);
    const state = deps.backupStateOn(tx);
    const placeOf = async () => {
      if (item === null) throw new Error('a storage item is required');
      if ('storageLocationId' in item) return item;
      if (item.type === 'RESELLER_BACKUP_PACKAGE') return resellerPlace(tx, item.id, prepared);
      if (request.requestType === 'NEW_SIGNUP') {
        return { storageLocationId: await preparedLocation(tx, prepared), parentResellerPackageId: null };
      }
      return { storageLocationId: item.id, parentResellerPackageId: null };
    };
    const template = request.requestedTemplateId === null ? null : await requests.template(request.requestedTemplateId);

    switch (request.requestType) {
      case 'NEW_SIGNUP': {
        const place = await placeOf();
        if (request.backupPackageId !== null) {
          // The sign-up's REQUESTED package becomes the approved one: one package, never a second beside it.
          if (await requests.placePackage(request.backupPackageId, place)) {
            await state.setPackageStatus(request.backupPackageId, 'APPROVED');
          }
        } else if (template) {
          // A sign-up recorded without its package (made before sign-ups made one) gets it now.
          await requests.insertPackage({
            customerId: request.customerId,
            name: template.name.slice(0, PACKAGE_NAME_MAX),
            status: 'APPROVED',
            templateId: template.id,
            ...packageSizesFromTemplate(template),
            ...place,
          });
        }
        await state.setCustomerStatus(request.customerId, 'ACTIVE');
        return;
      }
      case 'ADDITIONAL_PACKAGE': {
        if (request.backupPackageId === null) throw notFound();
        // Only a package still waiting is approved: one that moved on keeps its status.
        if (await requests.placePackage(request.backupPackageId, await placeOf())) {
          await state.setPackageStatus(request.backupPackageId, 'APPROVED');
        }
        return;
      }
      case 'CHANGE_PACKAGE': {
        if (request.backupPackageId === null) throw notFound();
        if (!template) throw badRequest(MESSAGES.packageTemplate.gone);
        const sizes = packageSizesFromTemplate(template);
        const current = await requests.packageSizes(request.backupPackageId);
        if (!current) throw notFound();
        // A per-machine limit below the old quota stays (within the new quota); an unlimited one follows the quota.
        const wasLimited = current.maxBackupSizePerMachineInMbs < packageQuotaInMb(current.packageQuotaSizeInBytes);
        await requests.changePackage(request.backupPackageId, {
          templateId: template.id,
          packageQuotaSizeInBytes: sizes.packageQuotaSizeInBytes,
          noOfMachinesLimit: sizes.noOfMachinesLimit,
          maxBackupSizePerMachineInMbs: wasLimited
            ? Math.min(current.maxBackupSizePerMachineInMbs, sizes.maxBackupSizePerMachineInMbs)
            : sizes.maxBackupSizePerMachineInMbs,
        });
        return;
      }
    }
  }

  /** Locks the request in scope; not found outside it, refused once decided. */
  async function pending(tx: Executor, scope: RequestScope | 'system', requestId: number) {
    const request = await createPackageRequestsRepo(tx).lock(scope, requestId);
    if (!request) throw notFound();
    // Decided already (a second click, another admin): a conflict with the request's state, nothing changes.
    if (request.status !== 'PENDING') throw conflict(MESSAGES.packageRequest.notPending);
    return request;
  }

  async function decided(
    tx: Executor,
    request: RequestRecord,
    status: 'APPROVED' | 'DECLINED',
    linked: { type: StorageItemType; id: number } | null,
  ) {
    if (!(await createPackageRequestsRepo(tx).decide(request.id, status, now(), linked))) {
      throw conflict(MESSAGES.packageRequest.notPending);
    }
  }

  async function afterApproval(request: RequestRecord) {
    if (request.requestType === 'CHANGE_PACKAGE' && request.backupPackageId !== null) {
      await deps.onPackageQuotaChanged(request.backupPackageId);
    }
  }

  return {
    async page(actor: Actor, paging: Paging): Promise<Paged<PackageRequestRow>> {
      const { rows, total } = await repo.pendingPage(scopeOf(actor), paging);
      const elements = await Promise.all(rows.map(async (r) => presentRequest(r, await availableItems(repo, r))));
      return pageOf(elements, total, paging.size);
    },

    async mine(actor: Actor, paging: Paging): Promise<Paged<MyPackageRequestRow>> {
      if (actor.customerId === null) throw forbidden();
      await deps.checkPaidInvoices(actor.customerId);
      const { rows, total } = await repo.ofCustomer(actor.customerId, paging);
      return pageOf(rows.map(presentMyRequest), total, paging.size);
    },

    /** PUT {approveUrl}: body requestApprovalSchema(the request's type); the item must be one on offer. */
    async approve(actor: Actor, requestId: number, body: unknown): Promise<void> {
      const scope = changer(actor);
      const prepared = await prepareLocation(scope, requestId, body);
      const request = await db
        .transaction(async (tx) => {
          const found = await pending(tx, scope, requestId);
          const { storageItemId } = parseWith(requestApprovalSchema(found.requestType), body ?? {});
          const offered = await availableItems(createPackageRequestsRepo(tx), found);
          let item: { type: StorageItemType; id: number } | null = null;
          if (offered) {
            if (!offered.storageItems.some((i) => i.id === storageItemId) || storageItemId === undefined) {
              throw badRequest(MESSAGES.packageRequest.storageItemNotAvailable, 'storageItemId');
            }
            item = { type: offered.storageItemsType, id: storageItemId };
          }
          await apply(tx, found, item, prepared);
          await decided(tx, found, 'APPROVED', item);
          return found;
        })
        .catch(async (error: unknown) => {
          // Nothing was approved: what the storage service got for the new location goes again.
          await prepared?.abandon();
          throw error;
        });
      // The location's rows are written: its bucket policy goes to the service now (a failure is logged).
      await prepared?.publish();
      await afterApproval(request);
    },

    /**
     * PUT {declineUrl}: the request is DECLINED, a sign-up's or additional package's REQUESTED package removed, a change
     * request's flags cleared; the customer's super admin is told by mail.
     */
    async decline(actor: Actor, requestId: number): Promise<void> {
      const scope = changer(actor);
      const request = await db.transaction(async (tx) => {
        const found = await pending(tx, scope, requestId);
        const requests = createPackageRequestsRepo(tx);
        await decided(tx, found, 'DECLINED', null);
        if (found.backupPackageId !== null && found.requestType !== 'CHANGE_PACKAGE') {
          await requests.detachPackage(found.id);
          await deps.backupStateOn(tx).deletePackage(found.backupPackageId);
        }
        if (found.backupPackageId !== null && found.requestType === 'CHANGE_PACKAGE') {
          await requests.clearChangeRequest(found.backupPackageId);
        }
        return found;
      });
      const admin = await repo.superAdminOf(request.customerId);
      if (!admin) return;
      const declined = {
        type: PACKAGE_REQUEST_TYPE_TEXTS[request.requestType],
        packageName: request.requestedBackupPackageName ?? request.backupPackageName,
      };
      await deps.mail
        .queue(
          {
            eventKey: `package-request-declined:${request.id}`,
            kind: ACCOUNT_MAIL_KINDS.packageRequestDeclined,
            customerId: request.customerId,
            recipient: admin.email,
          },
          () => packageRequestDeclinedMail(admin.firstName, declined),
        )
        .catch(deps.onMailError);
    },

    /**
     * For billing: a paid request is approved as the system. An ADDITIONAL_PACKAGE goes to the customer's
     * default storage location, a CHANGE_PACKAGE takes its new quota; anything else, or a request no longer
     * pending, is left alone. True when it approved.
     */
    async approvePaid(requestId: number): Promise<boolean> {
      const request = await db.transaction(async (tx) => {
        const found = await createPackageRequestsRepo(tx).lock('system', requestId);
        if (found?.status !== 'PENDING') return null;
        if (found.requestType === 'CHANGE_PACKAGE') {
          await apply(tx, found, null);
          await decided(tx, found, 'APPROVED', null);
          return found;
        }
        if (found.requestType !== 'ADDITIONAL_PACKAGE') return null;
        const locationId = await createPackageRequestsRepo(tx).defaultLocation(found.customerId);
        if (locationId === null) return null;
        await apply(tx, found, { storageLocationId: locationId, parentResellerPackageId: null });
        await decided(tx, found, 'APPROVED', { type: 'EXISTING_STORAGE_LOCATION', id: locationId });
        return found;
      });
      if (!request) return false;
      await afterApproval(request);
      return true;
    },
  };
}
export type PackageRequestService = ReturnType<typeof createPackageRequestService>;
