import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  confirmCustomerStatusChange,
  confirmDeleteCustomer,
  confirmDeletePackageTemplate,
  confirmMakeReseller,
  customerMachinesTitle,
  displayingItems,
  fieldAtLeast,
  fieldAtMost,
  formatLimit,
  liveChannelConnectionFailedText,
  MESSAGES,
  machineTasksTitle,
  madeReseller,
  madeResellerAction,
  madeResellerWithErrors,
  moreErrors,
  someErrorsOccurred,
  typeCustomerAdminName,
  unknownErrorWhile,
  unknownWhileMakingReseller,
  usersImported,
} from './messages.js';

/** Every leaf of the catalogue with its dotted key. */
function leaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

describe('message catalogue', () => {
  it('holds only non-empty strings (the legacy throttled builder aside)', () => {
    const all = leaves(MESSAGES);
    expect(all.length).toBeGreaterThan(200);
    for (const [key, value] of all) {
      if (key === 'throttled') {
        expect(MESSAGES.throttled(1)).toMatch(/1 second and/);
        continue;
      }
      expect(typeof value, key).toBe('string');
      expect((value as string).length, key).toBeGreaterThan(0);
      if (key !== 'someErrorsOccurredSuffix') expect(value, key).toBe((value as string).trim());
    }
  });

  it('keeps the flat keys the server and web import', () => {
    expect(MESSAGES.communicationError).toBe('Error in communicating with server.');
    expect(MESSAGES.responseError).toBe('Error in response from server.');
    expect(MESSAGES.submitFormError).toBe('Error while submitting form');
    expect(MESSAGES.someErrorsOccurredSuffix).toBe(' but some errors occurred.');
    expect(MESSAGES.passwordsDoNotMatch).toBe('Passwords do not match');
  });

  it("000 §8: template, settings and package texts as written ('Unkown' included)", () => {
    expect(MESSAGES.packageTemplate).toMatchObject({
      created: 'Package template created',
      deleted: 'Package template deleted!',
      updated: 'Package template updated!',
      editedWithErrors: 'Package template edited but some errors occurred.',
      deletedWithErrors: 'Package template deleted but some errors occurred.',
      createFailed: 'Error while submitting form',
      unknownWhileDeleting: 'Unkown error encountered while deleting package template.',
      unknownWhileEditing: 'Unkown error encountered while editing package template.',
      empty: 'There are no package templates',
    });
    expect(MESSAGES.resellerSettings.unknownWhileSaving).toBe('Unkown error encountered while saving settings.');
    expect(MESSAGES.resellerSettings.saved).toBe('Settings saved!');
    expect(MESSAGES.resellerSettings.emailSaved).toBe('Email settings saved and tested successfully!');
    expect(MESSAGES.packageRequest.approved).toBe('Backup package request approved successfully.');
    expect(MESSAGES.packageRequest.declined).toBe('Backup package request declined successfully.');
    expect(MESSAGES.backupPackage).toMatchObject({
      edited: 'Backup package edited successfully!',
      requested: 'Backup package requested successfully!',
      upDowngradeRequested: 'Backup package up/downgrade requested!',
      beingDeleted: 'Backup package is being deleted',
      statusUpdated: 'Backup package status has been updated',
      empty: 'There are no backup packages',
      unknownWhileUpDowngrading: 'Unkown error encountered while up/downgrading backup package.',
    });
    expect(MESSAGES.packageRequest.empty).toBe('There are no backup package requests');
    expect(MESSAGES.storage.failed).toBe('Could not obtain storage size');
    expect(MESSAGES.dashboard).toMatchObject({
      noCustomers: 'No customers found',
      noMachines: 'No machines found',
      noTasks: 'No tasks found',
    });
  });

  it('001 §8: machine, account, command, storage and migration texts as written', () => {
    expect(MESSAGES.backupMachine.updatedWithErrors).toBe('Backup machine updated but some errors occurred.');
    expect(MESSAGES.account.updatedWithErrors).toBe('Account updated but some errors occurred.');
    expect(MESSAGES.backupMachine.logUploadSubmittedWithErrors).toBe('Command submitted but some errors occurred.');
    expect(MESSAGES.backupMachine.logUploadSubmitted).toBe('Command submitted successfully!');
    expect(MESSAGES.resticCommand.submitted).toBe('Command submitted successfully.');
    expect(MESSAGES.backupMachine.unknownWhileEditing).toBe('Unkown error encountered while editing backup machine.');
    expect(MESSAGES.migration.unknownWhileRollingBack).toBe('Unkown error encountered while rolling back migration.');
    expect(MESSAGES.storageAccount.migrationSucceeded).toBe('Storage Account migration succeeded.');
    expect(MESSAGES.storageAccount.defaultUpdated).toBe('Updated default storage account.');
    expect(MESSAGES.storageLocation.madeDefault).toBe('Storage location is now the default for this customer');
    expect(MESSAGES.liveChannel.remoteMachineConnectionFailed).toBe(
      'Could not establish connection to remote machine.',
    );
    expect(MESSAGES.exitCodes.COMMAND_FROZEN).toBe('Transfer ceased');
    expect(MESSAGES.tree.noItems).toBe('No items to select');
    expect(MESSAGES.user.cannotDeleteLinked).toBe('User has linked packages and/or machines, cannot be deleted');
  });

  it('001 §8: every listed unknown-error X and warning variant', () => {
    const unknown = [
      MESSAGES.backupMachine.unknownWhileEditing,
      MESSAGES.account.unknownWhileEditing,
      MESSAGES.resticCommand.unknownWhileSubmitting,
      MESSAGES.resticCommand.unknownWhileCancelling,
      MESSAGES.resticCommand.unknownWhileDeleting,
      MESSAGES.storageLocation.unknownWhileCreating,
      MESSAGES.migration.unknownWhileInitializing,
      MESSAGES.migration.unknownWhileCancelling,
      MESSAGES.migration.unknownWhileRollingBack,
      MESSAGES.migration.unknownWhilePerforming,
      MESSAGES.user.unknownWhileUnlinking,
      MESSAGES.user.unknownWhileDeleting,
    ];
    expect(unknown.map((t) => t.replace('Unkown error encountered while ', ''))).toEqual([
      'editing backup machine.',
      'editing account.',
      'submitting command.',
      'cancelling command.',
      'deleting command.',
      'creating storage location.',
      'initializing migration.',
      'cancelling migration.',
      'rolling back migration.',
      'performing migration.',
      'unlinking user.',
      'deleting user.',
    ]);
    expect([
      MESSAGES.resticCommand.cancellationSubmittedWithErrors,
      MESSAGES.storageLocation.createdWithErrors,
      MESSAGES.migration.initializedWithErrors,
      MESSAGES.migration.cancellationSubmittedWithErrors,
      MESSAGES.migration.rolledBackWithErrors,
      MESSAGES.migration.performedWithErrors,
      MESSAGES.user.unlinkedWithErrors,
      MESSAGES.user.deletedWithErrors,
    ]).toEqual([
      'Command cancellation submitted but some errors occurred.',
      'Storage location created but some errors occurred.',
      'Migration initialized but some errors occurred.',
      'Migration cancellation submitted but some errors occurred.',
      'Migration rolled back but some errors occurred.',
      'Migration performed but some errors occurred.',
      'User unlinked but some errors occurred.',
      'User deleted but some errors occurred.',
    ]);
  });

  it('002 §8: user, import, customer and task texts as written (task warnings without a final period)', () => {
    expect(MESSAGES.user.addedWithErrors).toBe('User added but some errors occurred.');
    expect(MESSAGES.userImport.importedWithErrors).toBe('Users imported but some errors occurred.');
    expect(MESSAGES.user.unknownWhileLinking).toBe('Unkown error encountered while linking user.');
    expect(MESSAGES.userImport.unknownWhileImporting).toBe('Unkown error encountered while importing users.');
    expect(MESSAGES.task.unknownWhileInitiatingDownload).toBe('Unkown error encountered while initiating download.');
    expect(MESSAGES.task.savedWithErrors).toBe('Backup task saved but some errors occurred');
    expect(MESSAGES.task.beingStartedWithErrors).toBe('Backup task being started but some errors occurred');
    expect(MESSAGES.task.unpausedWithErrors).toBe('Backup task unpaused but some errors occurred');
    expect(MESSAGES.task.beingDeletedWithErrors).toBe('Backup task being deleted but some errors occurred');
    expect(MESSAGES.task.downloadStarting).toBe('Download starting shortly....');
    expect(MESSAGES.userImport.fileMayHaveChanged).toBe('File may have changed since last upload, please re-select.');
    expect(MESSAGES.userImport.noneImported).toBe('No users imported due to validation errors:');
    expect(MESSAGES.liveChannel.backupMachineCommunicationError).toBe('Error in communicating with backup machine.');
    expect(MESSAGES.customer.whmcsServerUpdated).toBe('Customer WHMCS server has been updated');
    expect(MESSAGES.customer.pluginSettingsSaved).toBe('Customer plugin settings have been saved');
    expect(MESSAGES.schedule.selectSchedule).toBe('Please select a schedule for this task.');
    expect(MESSAGES.exclusion.duplicate).toBe('Duplicate exclusion');
    expect(MESSAGES.task.unlimited).toBe('Unlimited');
  });

  it('spells every confirm-by-name message as written', () => {
    expect(Object.values(MESSAGES.confirmByName)).toEqual([
      'Must complete backup package name to confirm deletion',
      'Must complete backup package name to confirm status change',
      'Must complete backup machine name to confirm deletion',
      'Must complete backup machine name to confirm status change',
      "Must complete customer admin's name to confirm deletion",
      "Must complete customer admin's full name to confirm status change",
      "Must complete customer admin's full name to confirm WHMCS server change",
      "Must complete storage location's name to confirm deletion",
      "Must complete storage location's name to confirm",
      'Must complete correct backup task name to confirm deletion of archive',
      'Must complete correct backup task name to confirm deletion',
    ]);
  });
});

describe('message builders', () => {
  it("000 §8: 'Are you sure you want to delete package template called {name}?'", () => {
    expect(confirmDeletePackageTemplate('Gold')).toBe('Are you sure you want to delete package template called Gold?');
  });

  it("000 §2: '{name} machines' and '{machine} tasks'; 001 §2: 'Displaying X to Y of Z items'", () => {
    expect(customerMachinesTitle('Acme')).toBe('Acme machines');
    expect(machineTasksTitle('web-1')).toBe('web-1 tasks');
    expect(displayingItems(11, 20, 42)).toBe('Displaying 11 to 20 of 42 items');
  });

  it("002 §8.2, §8.4: 'N more error(s)' and 'N users imported'", () => {
    expect(moreErrors(3)).toBe('3 more error(s)');
    expect(usersImported(12)).toBe('12 users imported');
  });

  it('002 §8.1, §8.4: the make-reseller texts carry the company name, or read as quoted without one', () => {
    expect(madeReseller('Acme Ltd')).toBe('The company Acme Ltd made a reseller successfully');
    expect(madeReseller('  ')).toBe('The company made a reseller successfully');
    expect(madeResellerWithErrors('Acme Ltd')).toBe('The company Acme Ltd made a reseller but some errors occurred.');
    expect(unknownWhileMakingReseller('Acme Ltd')).toBe(
      'Unkown error encountered while making the company Acme Ltd a reseller.',
    );
    expect(unknownWhileMakingReseller('')).toBe('Unkown error encountered while making the company a reseller.');
    expect(someErrorsOccurred(madeResellerAction('Acme Ltd'))).toBe(madeResellerWithErrors('Acme Ltd'));
  });

  it('002 §5.4: the customer dialogs ask for the admin’s full name, or an empty entry without one', () => {
    expect(typeCustomerAdminName('Adele Vance')).toBe("Type the customer admin's full name, Adele Vance, to confirm.");
    for (const none of [null, '']) {
      expect(typeCustomerAdminName(none)).toBe('The customer has no admin name: leave the field empty to confirm.');
    }
    expect(confirmMakeReseller('Acme Ltd')).toMatch(/^Make Acme Ltd a reseller\?/);
    expect(confirmDeleteCustomer('Acme Ltd')).toMatch(/^Delete the customer Acme Ltd\?/);
    expect(confirmCustomerStatusChange('Acme Ltd')).toBe('Change the status of the customer Acme Ltd.');
  });

  it('000 §8: the warning and unknown-error builders wrap any text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        expect(someErrorsOccurred(text)).toBe(`${text}${MESSAGES.someErrorsOccurredSuffix}`);
        expect(unknownErrorWhile(text)).toBe(`Unkown error encountered while ${text}.`);
      }),
    );
  });

  it('000 §9: limits read with thousands separators', () => {
    expect(formatLimit(1_024_000_000_000)).toBe('1,024,000,000,000');
    expect(formatLimit(100)).toBe('100');
    expect(fieldAtMost('Number of machines', 100_000)).toBe('Number of machines must be at most 100,000');
    expect(fieldAtLeast('Max backup size per machine', 10, 'MB')).toBe(
      'Max backup size per machine must be at least 10 MB',
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(Number(formatLimit(n).replaceAll(',', ''))).toBe(n);
      }),
    );
  });
});

describe('live channel connection failure text (001 §8)', () => {
  it("names the remote machine on the customer's queue and the websocket connection on admin queues", () => {
    expect(liveChannelConnectionFailedText('CUSTOMER_MACHINE')).toBe(
      'Could not establish connection to remote machine.',
    );
    expect(liveChannelConnectionFailedText('BOLT_ADMIN_CUSTOMER_MACHINE')).toBe(
      'Could not establish websocket connection',
    );
    expect(liveChannelConnectionFailedText('BOLT_ADMIN_MIGRATION')).toBe('Could not establish websocket connection');
  });
});
