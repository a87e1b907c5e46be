import { createBillingDirectory } from '../billing/directory.js';
import { createBillingRepo } from '../billing/repo.js';
import { createBackupStateService } from '../features/backup-state/service.js';
import { registerBillingRoutes } from '../features/billing/routes.js';
import { createBillingService } from '../features/billing/service.js';
import { registerBillingServerRoutes } from '../features/billing-servers/routes.js';
import { createBillingServerService } from '../features/billing-servers/service.js';
import { createCustomerDeletion } from '../features/customers/deletion.js';
import { createCustomersRepo } from '../features/customers/repo.js';
import { registerCustomerRoutes } from '../features/customers/routes.js';
import { createCustomerService } from '../features/customers/service.js';
import { createPackageRequestsRepo } from '../features/package-requests/repo.js';
import { registerPackageRequestRoutes } from '../features/package-requests/routes.js';
import { createPackageRequestService } from '../features/package-requests/service.js';
import { createPackageTemplatesRepo } from '../features/package-templates/repo.js';
import { registerPackageTemplateRoutes } from '../features/package-templates/routes.js';
import { createPackageTemplateService } from '../features/package-templates/service.js';
import { createPackageDeletion } from '../features/packages/deletion.js';
import { createPackagesRepo } from '../features/packages/repo.js';
import { registerPackageRoutes } from '../features/packages/routes.js';
import { createPackageQuota, createPackageService } from '../features/packages/service.js';
import { createTemplateOffer } from '../features/purchase/offer.js';
import { createPaidInvoiceCheck } from '../features/purchase/paid-invoices.js';
import { createPurchaseRepo } from '../features/purchase/repo.js';
import { registerPurchaseRoutes } from '../features/purchase/routes.js';
import { createPurchaseService } from '../features/purchase/service.js';
import { createWhmcsPurchaseBilling } from '../features/purchase/whmcs-billing.js';
import { createSignUpRepo } from '../features/signup/repo.js';
import { registerSignUpRoutes } from '../features/signup/routes.js';
import { createSignUpService } from '../features/signup/service.js';
import { deletionJob } from '../jobs/deletion-job.js';
import { passJob } from '../jobs/passes.js';
import type { Accounts } from './accounts.js';
import type { AreaContext } from './context.js';
import type { MachinesArea } from './machines.js';
import type { MailArea } from './mail.js';
import type { StorageArea } from './storage.js';

/**
 * Commerce: customers, backup packages and their quota, package templates and requests, billing (WHMCS host
 * servers, invoices), buying backup and the public sign-up; the customer and package deletion, billing sync and
 * paid-invoice jobs.
 */
export function wireCommerce(
  ctx: AreaContext,
  deps: {
    accounts: Accounts;
    userViews: Parameters<typeof registerCustomerRoutes>[1]['userViews'];
    mail: MailArea;
    machines: MachinesArea;
    storage: StorageArea;
  },
) {
  const { app, config, db, now, runner, secrets, guard } = ctx;
  const { backupState, live, syncTasks } = deps.machines;
  const { storage } = deps;
  const mail = deps.mail.delivery;

  // Billing (issue 15): WHMCS host servers, the billing redirect, unpaid invoices, billing server change. Which
  // WHMCS serves a customer, and its client there: purchases and upgrades use it too.
  const billingDirectory = createBillingDirectory({ db, secrets, client: { guard } });
  const billing = createBillingService({
    directory: billingDirectory,
    repo: createBillingRepo(db),
    logger: ctx.log,
    now,
  });
  registerBillingRoutes(app, { billing });
  registerBillingServerRoutes(app, {
    servers: createBillingServerService({ db, secrets, client: { guard } }),
  });
  runner.add(passJob('billing-sync', () => billing.syncAll()));

  // Customer administration and the customer account page; a deletion finishes in the background job.
  const customersRepo = createCustomersRepo(db);
  const customerDeletion = createCustomerDeletion({
    repo: customersRepo,
    storage: storage.access,
    disconnectMachine: (machineId) => live.disconnectMachine(machineId),
    removeMachineStorageUser: (machineId) => storage.machineStorageKeys.remove(machineId),
    locations: storage.locations,
    warn: (message, detail) => ctx.log.warn(detail, message),
    now,
  });
  const customerDeletionJob = runner.add(
    deletionJob({ what: 'customer', runPending: () => customerDeletion.runPending() }),
  );
  registerCustomerRoutes(app, {
    changeBillingServer: (customerId, change) => billing.changeServer(customerId, change),
    customers: createCustomerService({
      repo: customersRepo,
      backupState,
      brandingFor: (customerId) => deps.accounts.shell.brandingFor(customerId),
      syncTasks,
      deletionRequested: () => customerDeletionJob.kick(),
      customerChanged: deps.accounts.customerChanged,
      audit: deps.accounts.audit,
    }),
    userViews: deps.userViews,
  });

  // Backup packages (issue 15): the quota rule, evaluated on usage reports, machine removal and quota changes; a
  // deletion is marked by the request and finished by its job.
  const packagesRepo = createPackagesRepo(db);
  const packageQuota = createPackageQuota({
    repo: packagesRepo,
    backupState,
    syncTasks,
    evaluated: deps.mail.notificationEvents.quotaChanged,
  });
  const packageDeletion = createPackageDeletion({
    repo: packagesRepo,
    removal: storage.removal,
    deleteRows: (packageId) => backupState.deletePackage(packageId),
    now,
  });
  const packageDeletionJob = runner.add(
    deletionJob({ what: 'package', runPending: () => packageDeletion.runPending() }),
  );
  registerPackageRoutes(app, {
    packages: createPackageService({
      repo: packagesRepo,
      machines: deps.machines.machinesRepo,
      quota: packageQuota,
      backupState,
      deletionRequested: () => packageDeletionJob.kick(),
      checkPaidInvoices: (customerId) => paidInvoices.checkCustomer(customerId),
    }),
  });

  // Package templates and package requests (issue 15, 000 §2-§7).
  registerPackageTemplateRoutes(app, {
    templates: createPackageTemplateService({ repo: createPackageTemplatesRepo(db) }),
  });
  const packageRequests = createPackageRequestService({
    db,
    repo: createPackageRequestsRepo(db),
    backupStateOn: (tx) => createBackupStateService({ db: tx, now }),
    // A change request's new quota may put the package over it or back under it.
    onPackageQuotaChanged: async (packageId) => {
      await packageQuota.evaluatePackageQuota(packageId);
    },
    mail,
    onMailError: (error) => ctx.log.error({ err: error }, 'package request decline mail failed'),
    checkPaidInvoices: (customerId) => paidInvoices.checkCustomer(customerId),
    locations: storage.locations,
    now,
  });
  registerPackageRequestRoutes(app, { requests: packageRequests });

  // Buying backup (issue 15): templates on offer, purchase, up/downgrade; paid invoices approve their requests.
  const purchaseRepo = createPurchaseRepo(db);
  const purchaseBilling = createWhmcsPurchaseBilling({ repo: purchaseRepo, directory: billingDirectory });
  registerSignUpRoutes(app, {
    signUp: createSignUpService({
      db,
      repo: createSignUpRepo(db),
      throttle: deps.accounts.authRepo,
      limitPerAddress: config.signUpLimitPerAddress,
      // The public sign-up is offered what a direct customer may buy (issue 29).
      offer: createTemplateOffer({ repo: purchaseRepo, billing: purchaseBilling }),
      now,
    }),
    mail,
    afterAnswer: ctx.afterAnswer,
  });
  registerPurchaseRoutes(app, {
    purchases: createPurchaseService({ db, repo: purchaseRepo, billing: purchaseBilling, now }),
  });
  const paidInvoices = createPaidInvoiceCheck({
    db,
    repo: purchaseRepo,
    billing: purchaseBilling,
    approvePaidRequest: async (requestId) => {
      await packageRequests.approvePaid(requestId);
    },
    warn: (message, detail) => ctx.log.warn(detail, message),
    now,
  });
  runner.add(passJob('paid-invoices', () => paidInvoices.checkAll()));

  return { billing, packagesRepo, packageQuota };
}
