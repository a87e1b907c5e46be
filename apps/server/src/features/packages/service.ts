import {
  type Actor,
  type AdminAudience,
  type Audience,
  canChangePackageStatus,
  canDeletePackage,
  isCustomerAdmin,
  isCustomerSuperAdmin,
  isPackageEditable,
  isPackageInitializable,
  type MachineRow,
  MESSAGES,
  machineQuotaStatus,
  mayChange,
  megabytesToBytes,
  type PackageDetail,
  type PackageRow,
  type PackageStatus,
  type PackageStorageDetails,
  type Paged,
  type Paging,
  packageAudience,
  packageEditSchema,
  packageInitializeSchema,
  packageQuotaInMb,
  packageQuotaStatus,
  packageStorageDetails,
  pageOf,
} from '@portal/domain';
import { badRequest, conflict, forbidden, notFound, parseWith } from '../../http/errors.js';
import type { BackupStateService } from '../backup-state/service.js';
import { presentMachineRow } from '../machines/present.js';
import type { MachinesRepo } from '../machines/repo.js';
import { presentPackageDetail, presentPackageRow } from './present.js';
import type { PackageRecord, PackagesRepo } from './repo.js';

const TEXT = MESSAGES.packagePages;

/** A package on an admin audience's path: the provider's names no customer, a reseller's does. */
export interface AdminPackagePath {
  customerId?: number;
  packageId: number;
}

/** The caller's id as the user whose package links count: customer-side callers only. */
const linkedUserIdOf = (actor: Actor) => (actor.customerId !== null ? actor.userId : null);

/**
 * Package quota (000 §4, DESIGN §8): a package's usage is the sum of its machines' reported usage; above
 * its quota an ACTIVE package becomes OVER_QUOTA (its tasks NOT_RUNNABLE, through the backup state so the
 * dashboard follows) and at or below it returns to ACTIVE; the package's connected agents are told.
 */
export function createPackageQuota(deps: {
  repo: Pick<PackagesRepo, 'quotaOf' | 'packageOfMachine' | 'onlineMachineIds' | 'machineUsage'>;
  backupState: Pick<BackupStateService, 'setPackageStatus' | 'setMachineStatus'>;
  /** Sends a machine's agent its task list again; offline is fine (it hears it on connecting). */
  syncTasks: (machineId: number) => Promise<void>;
  /** The package's usage or quota was evaluated: its over and near quota alerts (issue 17). */
  evaluated?: (packageId: number) => Promise<unknown>;
}) {
  const { repo } = deps;

  /** Sends every connected agent of the package its task list (the runnable flags follow the status). */
  async function syncPackage(packageId: number): Promise<void> {
    const machineIds = await repo.onlineMachineIds(packageId);
    await Promise.all(machineIds.map((id) => deps.syncTasks(id).catch(() => undefined)));
  }

  /** Applies the quota rule to the package now; true when its status changed. */
  async function evaluatePackageQuota(packageId: number): Promise<boolean> {
    const quota = await repo.quotaOf(packageId);
    const next = quota ? packageQuotaStatus(quota.status, quota.used, quota.quota) : null;
    if (quota) await deps.evaluated?.(packageId);
    if (next === null || !(await deps.backupState.setPackageStatus(packageId, next))) return false;
    await syncPackage(packageId);
    return true;
  }

  /**
   * After the per-machine limit changed (edit): each machine above the new limit becomes
   * OVER_PER_MACHINE_QUOTA and one back under it ACTIVE (machineQuotaStatus, as on a usage report).
   */
  async function evaluateMachineLimits(packageId: number, limitMb: number): Promise<void> {
    let changed = false;
    for (const machine of await repo.machineUsage(packageId)) {
      const next = machineQuotaStatus(machine.status, machine.usedSpaceBytes, megabytesToBytes(limitMb));
      if (next !== null && (await deps.backupState.setMachineStatus(machine.id, next))) changed = true;
    }
    if (changed) await syncPackage(packageId);
  }

  return {
    evaluatePackageQuota,
    evaluateMachineLimits,
    syncPackage,
    /** Removes a machine's rows with `remove`, then evaluates the package it was in (its usage went with it). */
    async removingMachine(machineId: number, remove: () => Promise<boolean>): Promise<boolean> {
      const packageId = await repo.packageOfMachine(machineId);
      const removed = await remove();
      if (removed && packageId !== null) await evaluatePackageQuota(packageId);
      return removed;
    },
    /** After a machine's usage changed: its package's quota. */
    async evaluateForMachine(machineId: number): Promise<boolean> {
      const packageId = await repo.packageOfMachine(machineId);
      return packageId === null ? false : evaluatePackageQuota(packageId);
    },
  };
}

export type PackageQuota = ReturnType<typeof createPackageQuota>;

/**
 * The backup package pages' use cases (000 §2, §4, §5): the customer admins' table, each audience's
 * package page, storage details and machines, edit, initialize, status change and deletion. A package
 * the caller does not see (another tenant's, one not linked to a customer admin, one being deleted) is
 * not found; seeing is not changing (read-only admins get 403).
 */
export function createPackageService(deps: {
  repo: PackagesRepo;
  machines: Pick<MachinesRepo, 'page'>;
  quota: PackageQuota;
  backupState: Pick<BackupStateService, 'setPackageStatus'>;
  /** Wakes the deletion job. */
  deletionRequested: () => void;
  /** Approves the customer's purchases whose invoices were paid meanwhile, so the table shows them at once. */
  checkPaidInvoices: (customerId: number) => Promise<unknown>;
}) {
  const { repo, quota } = deps;

  /** The package and the audience the caller sees it as; 404 when the caller does not see it. */
  async function visible(actor: Actor, packageId: number, options: { includeBeingDeleted?: boolean } = {}) {
    const pkg = await repo.package(packageId, linkedUserIdOf(actor));
    const audience = pkg ? packageAudience(actor, pkg) : null;
    if (!pkg || audience === null || (pkg.beingDeleted && !options.includeBeingDeleted)) throw notFound(TEXT.notFound);
    return { pkg, audience };
  }

  /** On an audience's own path: it must be how the caller sees the package (and the path's customer its own). */
  async function onPath(
    actor: Actor,
    audience: Audience,
    path: AdminPackagePath,
    options: { includeBeingDeleted?: boolean } = {},
  ): Promise<PackageRecord> {
    const found = await visible(actor, path.packageId, options);
    if (found.audience !== audience) throw notFound(TEXT.notFound);
    if (path.customerId !== undefined && found.pkg.customerId !== path.customerId) throw notFound(TEXT.notFound);
    return found.pkg;
  }

  /** A package the customer's admin may change: seen on the customer's path, then not read-only (403). */
  async function changeable(actor: Actor, packageId: number): Promise<PackageRecord> {
    const pkg = await onPath(actor, 'customer', { packageId });
    if (!mayChange(actor)) throw forbidden();
    return pkg;
  }

  async function administrable(
    actor: Actor,
    audience: AdminAudience,
    path: AdminPackagePath,
    includeBeingDeleted = false,
  ) {
    const pkg = await onPath(actor, audience, path, { includeBeingDeleted });
    if (!mayChange(actor)) throw forbidden();
    return pkg;
  }

  async function rowOf(actor: Actor, packageId: number): Promise<PackageRow> {
    const { pkg, audience } = await visible(actor, packageId);
    return presentPackageRow(pkg, actor, audience);
  }

  return {
    /** /admin/backuppackages: the customer's packages; an admin who is not the super admin, the linked ones. */
    async list(actor: Actor, paging: Paging): Promise<Paged<PackageRow>> {
      if (actor.customerId === null || !isCustomerAdmin(actor)) throw forbidden();
      await deps.checkPaidInvoices(actor.customerId);
      const scope = {
        customerId: actor.customerId,
        linkedUserId: actor.userId,
        onlyLinked: !isCustomerSuperAdmin(actor),
      };
      const { rows, total } = await repo.page(scope, paging);
      return pageOf(
        rows.map((row) => presentPackageRow(row, actor, 'customer')),
        total,
        paging.size,
      );
    },

    /** The package page's data on the path of `audience`. */
    async detail(actor: Actor, audience: Audience, path: AdminPackagePath): Promise<PackageDetail> {
      return presentPackageDetail(await onPath(actor, audience, path), actor, audience);
    },

    /** 000 §3 'Storage details', for anyone who sees the package. */
    async storage(actor: Actor, packageId: number): Promise<PackageStorageDetails> {
      const { pkg } = await visible(actor, packageId);
      return packageStorageDetails(pkg.packageQuotaSizeInBytes, pkg.usedSpaceInBytes);
    },

    /** The package's machines (the machines table of its page), as the caller sees the package. */
    async machines(actor: Actor, packageId: number, paging: Paging): Promise<Paged<MachineRow>> {
      const { pkg, audience } = await visible(actor, packageId);
      const { rows, total } = await deps.machines.page(
        { customerId: pkg.customerId, assignedUserId: null, packageId: pkg.id },
        paging,
      );
      return pageOf(
        rows.map((row) => presentMachineRow(row, actor, audience)),
        total,
        paging.size,
      );
    },

    /** Edit (000 §5): name and per-machine limit, at most the quota; only ACTIVE or OVER_QUOTA packages. */
    async edit(actor: Actor, packageId: number, body: unknown): Promise<PackageRow> {
      const pkg = await changeable(actor, packageId);
      if (!isPackageEditable(pkg.status)) throw badRequest(TEXT.notEditable);
      const payload = parseWith(packageEditSchema(packageQuotaInMb(pkg.packageQuotaSizeInBytes)), body);
      const edited = await repo.edit(pkg.id, {
        name: payload.name,
        maxBackupSizePerMachineInMbs: payload.maxBackupSizePerMachine,
      });
      if (!edited) throw conflict(TEXT.notEditable);
      await quota.evaluateMachineLimits(pkg.id, payload.maxBackupSizePerMachine);
      return rowOf(actor, packageId);
    },

    /** Initialize (000 §4): the owner names an APPROVED package, which becomes ACTIVE. */
    async initialize(actor: Actor, packageId: number, body: unknown): Promise<PackageRow> {
      const pkg = await changeable(actor, packageId);
      if (!isPackageInitializable(pkg.status)) throw badRequest(TEXT.notInitializable);
      const { name } = parseWith(packageInitializeSchema, body);
      await repo.rename(pkg.id, name);
      if (!(await deps.backupState.setPackageStatus(pkg.id, 'ACTIVE'))) throw notFound(TEXT.notFound);
      await quota.evaluatePackageQuota(pkg.id);
      return rowOf(actor, packageId);
    },

    /** Change status (000 §4): only the offered transitions; the agents learn whether their tasks may run. */
    async changeStatus(actor: Actor, audience: AdminAudience, path: AdminPackagePath, to: PackageStatus) {
      const pkg = await administrable(actor, audience, path);
      if (!canChangePackageStatus(pkg.status, to)) throw badRequest(TEXT.statusChangeNotAllowed);
      if (!(await deps.backupState.setPackageStatus(pkg.id, to))) throw notFound(TEXT.notFound);
      // An ACTIVE package already above its quota is OVER_QUOTA at once (evaluation also tells the agents).
      if (!(await quota.evaluatePackageQuota(pkg.id))) await quota.syncPackage(pkg.id);
    },

    /**
     * Delete (000 §4): only a SUSPENDED package. It and its machines are marked at once and removed by the
     * deletion job (storage first, then rows); asking again while it is being deleted answers as the first time.
     */
    async remove(actor: Actor, audience: AdminAudience, path: AdminPackagePath): Promise<void> {
      const pkg = await administrable(actor, audience, path, true);
      if (!pkg.beingDeleted) {
        if (!canDeletePackage(pkg.status)) throw badRequest(TEXT.deleteOnlySuspended);
        if (!(await repo.markForDeletion(pkg.id))) {
          const again = await repo.package(pkg.id, null);
          if (again && !again.beingDeleted) throw conflict(TEXT.deleteOnlySuspended);
        }
      }
      deps.deletionRequested();
    },
  };
}

export type PackageService = ReturnType<typeof createPackageService>;
