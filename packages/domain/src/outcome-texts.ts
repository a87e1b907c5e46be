import { MESSAGES } from './messages.js';
import { NOTIFICATION_TEXTS } from './notifications.js';
import { STORAGE_LOCATION_TEXTS } from './storage-locations.js';

/**
 * The three texts of one action's outcome (000 §8, 001 §8, 002 §8): the success toast, the warning toast of an
 * OK answer that still carries messages ('… but some errors occurred.') and the global error of a failure
 * without messages ('Unkown error encountered while …'). The names are those the web's submissions take, so a
 * dialog hands one entry on whole.
 */
export interface OutcomeTexts {
  successText: string;
  partialText: string;
  unknownErrorText: string;
}

const outcome = (successText: string, partialText: string, unknownErrorText: string): OutcomeTexts => ({
  successText,
  partialText,
  unknownErrorText,
});

const {
  backupMachine: machine,
  backupPackage: pkg,
  billing,
  customer,
  migration,
  packageRequest: request,
  packageTemplate: template,
  resticCommand: command,
  storageAccount,
  storageAccountPages: accountPages,
  storageLocation: location,
  user,
  userImport,
} = MESSAGES;

/** Each action's outcome texts, from the message catalogue, by the area it belongs to. */
export const OUTCOME_TEXTS = {
  account: {
    edit: outcome(MESSAGES.account.edited, MESSAGES.account.updatedWithErrors, MESSAGES.account.unknownWhileEditing),
  },
  billingServer: {
    add: outcome(billing.serverAdded, billing.serverAddedWithErrors, billing.unknownWhileAddingServer),
    update: outcome(billing.serverUpdated, billing.serverUpdatedWithErrors, billing.unknownWhileUpdatingServer),
    delete: outcome(billing.serverDeleted, billing.serverDeletedWithErrors, billing.unknownWhileDeletingServer),
  },
  customer: {
    changeStatus: outcome(
      customer.statusUpdated,
      customer.statusUpdatedWithErrors,
      customer.unknownWhileChangingStatus,
    ),
    delete: outcome(customer.beingDeleted, customer.beingDeletedWithErrors, customer.unknownWhileDeleting),
    savePluginSettings: outcome(
      customer.pluginSettingsSaved,
      customer.pluginSettingsSavedWithErrors,
      customer.unknownWhileSavingPluginSettings,
    ),
    changeBillingServer: outcome(
      customer.whmcsServerUpdated,
      customer.whmcsServerUpdatedWithErrors,
      customer.unknownWhileChangingWhmcsServer,
    ),
  },
  machine: {
    edit: outcome(machine.edited, machine.updatedWithErrors, machine.unknownWhileEditing),
    changeStatus: outcome(machine.statusUpdated, machine.statusUpdatedWithErrors, machine.unknownWhileChangingStatus),
    delete: outcome(machine.beingDeleted, machine.beingDeletedWithErrors, machine.unknownWhileDeleting),
    refreshStorage: outcome(
      machine.storageRefreshing,
      machine.storageRefreshingWithErrors,
      machine.unknownWhileRefreshingStorage,
    ),
    rotateStorageKey: outcome(
      STORAGE_LOCATION_TEXTS.machineKeyRotated,
      machine.storageKeyRotatedWithErrors,
      machine.unknownWhileRotatingStorageKey,
    ),
    requestLogUpload: outcome(
      machine.logUploadSubmitted,
      machine.logUploadSubmittedWithErrors,
      machine.unknownWhileSubmittingLogUpload,
    ),
  },
  migration: {
    create: outcome(migration.initialized, migration.initializedWithErrors, migration.unknownWhileInitializing),
    migrateStorageAccount: outcome(
      storageAccount.migrationSucceeded,
      storageAccount.migrationPerformedWithErrors,
      storageAccount.unknownWhilePerformingMigration,
    ),
  },
  notifications: {
    save: outcome(NOTIFICATION_TEXTS.saved, NOTIFICATION_TEXTS.savedWithErrors, NOTIFICATION_TEXTS.unknownWhileSaving),
  },
  package: {
    edit: outcome(pkg.edited, pkg.editedWithErrors, pkg.unknownWhileEditing),
    // Initializing names the package: an edit that went on with problems says so.
    initialize: outcome(
      MESSAGES.packagePages.initialized,
      pkg.editedWithErrors,
      MESSAGES.packagePages.unknownWhileInitializing,
    ),
    changeStatus: outcome(pkg.statusUpdated, pkg.statusUpdatedWithErrors, pkg.unknownWhileChangingStatus),
    delete: outcome(pkg.beingDeleted, pkg.beingDeletedWithErrors, pkg.unknownWhileDeleting),
    purchase: outcome(pkg.requested, pkg.requestedWithErrors, pkg.unknownWhilePurchasing),
    upDowngrade: outcome(pkg.upDowngradeRequested, pkg.upDowngradeRequestedWithErrors, pkg.unknownWhileUpDowngrading),
  },
  packageRequest: {
    approve: outcome(request.approved, request.approvedWithErrors, request.unknownWhileApproving),
    decline: outcome(request.declined, request.declinedWithErrors, request.unknownWhileDeclining),
  },
  packageTemplate: {
    create: outcome(template.created, template.createdWithErrors, template.createFailed),
    edit: outcome(template.updated, template.editedWithErrors, template.unknownWhileEditing),
    delete: outcome(template.deleted, template.deletedWithErrors, template.unknownWhileDeleting),
  },
  resticCommand: {
    submit: outcome(command.submitted, command.submittedWithErrors, command.unknownWhileSubmitting),
    stop: outcome(
      command.cancellationSubmitted,
      command.cancellationSubmittedWithErrors,
      command.unknownWhileCancelling,
    ),
    delete: outcome(command.deleted, command.deletedWithErrors, command.unknownWhileDeleting),
  },
  storageAccount: {
    deletePrincipal: outcome(
      storageAccount.principalDeleted,
      storageAccount.principalDeletedWithErrors,
      storageAccount.unknownWhileDeletingPrincipal,
    ),
    add: outcome(accountPages.added, accountPages.addedWithErrors, accountPages.unknownWhileAdding),
    update: outcome(accountPages.updated, accountPages.updatedWithErrors, accountPages.unknownWhileUpdating),
    remove: outcome(accountPages.removed, accountPages.removedWithErrors, accountPages.unknownWhileRemoving),
  },
  storageLocation: {
    create: outcome(location.created, location.createdWithErrors, location.unknownWhileCreating),
    delete: outcome(location.deleted, location.deletedWithErrors, location.unknownWhileDeleting),
    makeDefault: outcome(location.madeDefault, location.madeDefaultWithErrors, location.unknownWhileMakingDefault),
  },
  user: {
    add: outcome(user.added, user.addedWithErrors, user.unknownWhileAdding),
    edit: outcome(user.edited, user.editedWithErrors, user.unknownWhileEditing),
    delete: outcome(user.deleted, user.deletedWithErrors, user.unknownWhileDeleting),
    linkPackage: outcome(user.linked, user.linkedWithErrors, user.unknownWhileLinking),
    unlinkPackage: outcome(user.unlinked, user.unlinkedWithErrors, user.unknownWhileUnlinking),
    import: outcome(userImport.imported, userImport.importedWithErrors, userImport.unknownWhileImporting),
  },
} as const satisfies Record<string, Record<string, OutcomeTexts>>;
