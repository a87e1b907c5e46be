import { COMMAND_RESULT_TEXTS, CUSTOMER_STATUS_TEXTS, type CustomerStatus, type WebsocketQueueType } from './enums.js';
import { EXCLUSION_MESSAGES } from './exclusions.js';
import { SHELL_TEXTS, SIGN_IN_TEXTS } from './first-page-texts.js';
import type { MailMessage } from './mail.js';
import { PAGES } from './routes.js';
import { SCHEDULE_MESSAGES } from './schedule.js';
import { SEEDING_MESSAGES } from './seeding.js';
import { STORAGE_TEXTS, UNLIMITED_TEXT } from './sizes.js';
import { STORAGE_SERVICE_TEXTS } from './storage-service.js';

/**
 * The message catalogue: every user-visible text of the specification (000, 001 and 002: the error
 * catalogues of §8, success and warning toasts, empty states, tooltips, confirmation texts and dialog
 * titles that are quoted), spelled exactly as written, misspellings included ('Unkown error ...'),
 * declared once so the server and the web app show the same words.
 *
 * Layout of MESSAGES:
 * - flat keys (communicationError, responseError, ...) are the general texts every area uses; the
 *   sign-in and account texts below them are ours (the specification leaves them open);
 * - one group per area (MESSAGES.packageTemplate.created, MESSAGES.backupMachine.beingDeleted, ...).
 *   Within a group: plain names are success toasts and labels, `...WithErrors` the warning toast of
 *   an OK answer that still carries messages, `unknownWhile...` the global error of a failed answer
 *   without messages, `empty` the empty-table text.
 *
 * Texts the specification describes without quoting are marked "ours" where they are declared. Our
 * rules for them:
 * - a warning toast not quoted is '{success toast without its final ! or .} but some errors occurred.'
 *   (000 §8: '... but some errors occurred.');
 * - an unknown error not listed is 'Unkown error encountered while {verb}ing {object}.' in the words of
 *   the dialog, as the listed ones are.
 * Parameterised texts are the builder functions below the catalogue.
 *
 * Groups whose texts belong to a rule another module owns are declared there and only referenced here
 * (storage texts: sizes.ts; exit codes: enums.ts; schedule: schedule.ts; exclusions: exclusions.ts; the
 * first page's sign-in and shell texts: first-page-texts.ts, so that page loads no more of this file), so
 * every text is still declared once. Those modules must not import this file (an import cycle). Badge
 * texts (CHANGE REQUESTED, NEW SIGNUP, IN USE, ...), 'ongoing', 'Item x of y', 'Used: X of Y, available:
 * Z' and 'The {action} has been cancelled' live with their rules in statuses.ts, actions.ts and sizes.ts.
 */

const SOME_ERRORS_SUFFIX = ' but some errors occurred.';
const SUBMIT_FORM_ERROR = 'Error while submitting form';

/** '{action} but some errors occurred.' warning toast of 000 §8 and 001 §8. */
export function someErrorsOccurred(action: string): string {
  return `${action}${SOME_ERRORS_SUFFIX}`;
}

/** 'Unkown error encountered while {doing}.' (misspelling as in the product, 000 §8, 001 §8, 002 §8.1). */
export function unknownErrorWhile(doing: string): string {
  return `Unkown error encountered while ${doing}.`;
}

export const MESSAGES = {
  communicationError: 'Error in communicating with server.',
  responseError: 'Error in response from server.',
  someErrorsOccurredSuffix: SOME_ERRORS_SUFFIX,
  submitFormError: SUBMIT_FORM_ERROR,
  notFound: SHELL_TEXTS.notFound,
  // Sign-in and account texts: the specification leaves these to us.
  signInFailed: SIGN_IN_TEXTS.signInFailed,
  signedOut: SIGN_IN_TEXTS.signedOut,
  accountSuspended: SIGN_IN_TEXTS.accountSuspended,
  sessionExpired: SIGN_IN_TEXTS.sessionExpired,
  throttled: SIGN_IN_TEXTS.throttled,
  resetMailSent: 'If an account exists for that e-mail address, a link to reset the password has been sent to it.',
  resetLinkInvalid: 'This password reset link is invalid, has expired or has already been used.',
  passwordReset: SIGN_IN_TEXTS.passwordReset,
  profileSaved: 'Profile saved!',
  profileSavedWithErrors: someErrorsOccurred('Profile saved'),
  unknownWhileSavingProfile: unknownErrorWhile('saving the profile'),
  passwordChanged: 'Password changed! Your other sessions have been signed out.',
  passwordChangedWithErrors: someErrorsOccurred('Password changed'),
  unknownWhileChangingPassword: unknownErrorWhile('changing the password'),
  resetLinkRequestedWithErrors: someErrorsOccurred('Reset link requested'),
  unknownWhileRequestingResetLink: unknownErrorWhile('requesting a reset link'),
  passwordResetWithErrors: someErrorsOccurred('Password reset'),
  unknownWhileResettingPassword: unknownErrorWhile('resetting the password'),
  currentPasswordWrong: 'Current password is not correct',
  passwordsDoNotMatch: 'Passwords do not match',
  emailTaken: 'This e-mail address is already in use',
  csrfRejected: 'Your form has expired. Please reload the page and try again.',
  forbidden: 'You do not have access to this.',
  unauthenticated: 'Please sign in.',
  internalError: 'An unexpected error occurred. Please try again later.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  /** GET /health when the database does not answer (503). */
  databaseDown: 'The database is not reachable.',
  /** GET /ready when this instance should not get traffic (503): its result says which part is not ready. */
  notReady: 'This instance is not ready for traffic.',
  tooManyRequests: 'Too many requests. Please slow down.',
  /** A request line or headers over the server's limit (431), answered before any route is found (issue 29). */
  requestHeadersTooLarge: 'The request address or headers are too long.',
  /** A request the HTTP parser could not read at all (400). */
  requestUnreadable: 'The request could not be read.',
  /** A request whose headers did not arrive in time (408). */
  requestTimedOut: 'The request took too long to arrive.',
  /** A JSON text with a lone surrogate (`"\ud800"`): refused rather than stored as U+FFFD (issue 18). */
  textNotWellFormed: 'Contains a character that is not valid text. Please type it again.',

  /** Row buttons of paged tables (001 §2): disabled when the row is not accessible. */
  notAccessible: 'Not accessible',
  /** Yes/No cells of tables (001 §2, 002 §2.4: 'Read only', 'Default Storage Account'). */
  yes: 'Yes',
  no: 'No',

  /** Storage usage bars and widgets (000 §8, §9; 001 §4, §8; 002 §8.5), declared in sizes.ts. */
  storage: STORAGE_TEXTS,

  /** Dashboard tabs and tables (000 §2, §8). */
  /** Answers of `agent link` (ours: the spec does not show the client's linking). */
  machineLink: {
    signInFailed: 'E-mail or password is incorrect',
    throttled: 'Too many failed attempts; try again later',
    accountSuspended: 'This account is suspended',
    notACustomerUser: 'Only users of a customer account can link machines',
    noPackage: 'No active backup package is available to this user',
    choosePackage: 'Choose the backup package to link this machine to',
    packageNotAvailable: 'That backup package is not available to this user',
    machineLimitReached: 'The backup package already has as many machines as it allows',
    badTimeZone: 'Unknown time zone',
    codeOrPassword: 'Give either a linking code or an e-mail address and password',
    linkingCodeInvalid:
      'This linking code is unknown, has expired or has already been used. Make a new one in the portal.',
    readOnlyCannotLink: 'Read-only users cannot link machines',
    tooManyLinkingCodes: 'You have too many unused linking codes. Use one, or wait until one expires.',
    // The portal's 'Link a machine' dialog.
    linkButton: 'Link a machine',
    dialogTitle: 'Link a machine',
    dialogIntro: 'Run this command on the machine you want to back up. The code links one machine, once.',
    codeLabel: 'Linking code',
    expiresAt: 'Expires at',
    packageLabel: 'Backup package',
    copyCommand: 'Copy command',
    commandCopied: 'Command copied',
    copyFailed: 'Could not copy; select the command and copy it by hand.',
    newCode: 'New code',
    close: 'Close',
    makingCode: 'Making a code…',
    codeMadeWithErrors: someErrorsOccurred('Linking code made'),
    unknownWhileMakingCode: unknownErrorWhile('making a linking code'),
  },
  dashboard: {
    customersTitle: 'Customers',
    myCustomersTitle: 'My Customers',
    allMachinesTitle: 'All machines',
    machinesTitle: 'Machines',
    showAll: 'Show all',
    noCustomers: 'No customers found',
    noMachines: 'No machines found',
    noTasks: 'No tasks found',
    // Ours: the spec names these controls and columns (000 §2) without quoting every word.
    select: 'Select',
    unselect: 'Unselect',
    selectAll: 'Select All',
    manage: 'Manage',
    closeTab: 'Close tab',
    clearFilter: 'Clear filter',
    filteredOn: 'Filtered on',
    tasksInProgress: 'Tasks in progress',
    online: 'Online',
    offline: 'Offline',
    noData: 'No data',
    columns: {
      name: 'Name',
      superAdminEmail: 'Super admin email',
      status: 'Status',
      taskStatus: 'Tasks status',
      user: 'User',
      os: 'OS',
      softwareVersion: 'Software version',
      schedule: 'Schedule',
      actions: 'Actions',
    },
    /** The getting-started strip (000 §2): its title and one label per step. */
    gettingStarted: {
      title: 'Getting started',
      done: 'done',
      current: 'current step',
      REGISTERED: 'Account registered',
      PAYMENT: 'Pay for your backup package',
      LINK_MACHINE: 'Install the client and link a machine',
      FIRST_TASK: 'Add your first backup task',
      /** Ours: the pricing link beside the pay step (000 §6). */
      pricing: 'Pricing',
    },
    /** Ours (issue 31): the list above the pies of what needs attention, and an empty scope's next steps. */
    attention: {
      title: 'Needs attention',
      none: 'Nothing needs attention: no failed, missed or stalled backups, no machine offline or over quota, no backup verification failed or overdue.',
      /** 'The newest 10 of 42' (attentionShowingText). */
      newest: 'The newest',
      of: 'of',
      kinds: {
        TASK_FAILED: 'Backup failed',
        TASK_MISSED: 'Backup missed',
        RUN_STALLED: 'Run stalled',
        OVER_QUOTA: 'Over quota',
        MACHINE_OFFLINE: 'Machine offline',
        VERIFICATION_FAILED: 'Verification failed',
        VERIFICATION_OVERDUE: 'Verification overdue',
      },
      since: 'Since',
    },
    nextSteps: {
      title: 'Start backing up',
      intro: 'There is no machine here yet. Two steps and the first backup runs:',
      addMachine: 'Add a machine',
      addMachineText: 'Install the agent on the computer to back up and link it with a one-time code:',
      addTask: 'Add a backup task',
      addTaskText: "Then open the machine's page and add a task: what to back up and when.",
      noMachineForAdmin: 'No customer of yours has a machine yet.',
    },
  },

  /** The desktop-app user manual page (000 §1); the chapters are ours (the agent's own manual). */
  manual: {
    title: 'Desktop app user manual',
    contents: 'Contents',
    yourSystem: 'Your system',
    unknownSystem: 'Unknown system',
    forYourSystem: 'for your system',
    chapters: {
      overview: 'What the agent does',
      install: 'Installing the agent',
      installLinux: 'On Linux',
      installLinuxUser: 'Without root',
      installLinuxNoSystemd: 'Where systemd does not run',
      installMacos: 'On macOS',
      installWindows: 'On Windows',
      installFiles: 'What the installer puts where',
      link: 'Linking the machine',
      service: 'The agent as a service',
      tasks: 'Backup tasks, schedules and restic',
      restore: 'Restoring files',
      uninstall: 'Uninstalling',
    },
  },

  /** Getting the agent from the portal (issue 14): downloads and the one-line installers; ours. */
  agentInstall: {
    badCode: 'This is not a linking code: a code has 12 letters and digits, as XXXX-XXXX-XXXX.',
    badPackage: 'The package must be the id of a backup package',
    badServer: "The portal's address cannot be put into the installer; set PUBLIC_URL",
    notBuilt: 'The agent is not built on this server (npm run build)',
    installLabel: 'Install the agent and link this machine (one line)',
    installIntro:
      'Run this line on the machine you want to back up: it checks for restic, installs the agent as a service that starts at boot and links it with the code.',
    unixNote:
      'Run it as root (curl … | sudo sh) for a service of the machine; as another user it installs for that user.',
    windowsNote: 'Run it in PowerShell as Administrator. Needs Node.js 20 or later.',
    copyInstall: 'Copy install command',
    linkOnlyLabel: 'Agent installed already? Link it with',
    downloads: 'Downloads',
    linuxExecutable: 'Agent for Linux x64 (no Node.js needed)',
    bundle: 'Agent for Node.js 20 or later (any system)',
    unixInstaller: 'Installer for Linux and macOS',
    windowsInstaller: 'Installer for Windows',
    manualLink: 'Desktop app user manual',
  },

  /** Package templates (000 §5, §8). */
  packageTemplate: {
    created: 'Package template created',
    updated: 'Package template updated!',
    deleted: 'Package template deleted!',
    /** Ours (000 §8 quotes the edit and delete variants only). */
    createdWithErrors: someErrorsOccurred('Package template created'),
    editedWithErrors: someErrorsOccurred('Package template edited'),
    deletedWithErrors: someErrorsOccurred('Package template deleted'),
    /** Add with a failed answer without messages. */
    createFailed: SUBMIT_FORM_ERROR,
    unknownWhileEditing: unknownErrorWhile('editing package template'),
    unknownWhileDeleting: unknownErrorWhile('deleting package template'),
    empty: 'There are no package templates',
    limitMachinesLabel: 'Limit number of machines?',
    /** Ours: a template a package or a pending request uses stays (000 §3 links packages to templates). */
    inUse: 'This package template is used by a backup package or a pending request and cannot be deleted.',
    /** Ours: the template chosen for a request is gone. */
    gone: 'The requested package template no longer exists.',
    /** Ours: the page, its table and dialogs (000 §2 names them without their texts). */
    pageTitle: 'Package Templates',
    tableLabel: 'Package templates',
    addButton: 'Add package template',
    addTitle: 'Add package template',
    editTitle: 'Edit package template',
    deleteTitle: 'Delete package template',
    addSubmit: 'Add',
    editSubmit: 'Save',
    deleteSubmit: 'Delete',
    edit: 'Edit',
    delete: 'Delete',
    columns: {
      name: 'Name',
      storageQuota: 'Storage quota',
      machines: 'Max number of machines',
      /** Ours: who a provider's template is offered to (issue 29). */
      audience: 'Offered to',
      actions: 'Actions',
    },
    /** Ours: a provider's template's audience, in its table and under the form's switch. */
    audience: {
      resellersOnly: 'Resellers only',
      everyone: 'Every customer',
      hint: 'Offered to resellers only: direct customers and the public sign-up do not see it.',
    },
  },

  /** Reseller settings tabs (000 §2, §8; 002 §8.1, §8.4). */
  resellerSettings: {
    accountTab: 'Account Settings',
    lookAndFeelTab: 'Look and Feel Settings',
    emailTab: 'Email Settings',
    saved: 'Settings saved!',
    emailSaved: 'Email settings saved and tested successfully!',
    /** Ours. */
    savedWithErrors: someErrorsOccurred('Settings saved'),
    /** Ours. */
    emailSavedWithErrors: someErrorsOccurred('Email settings saved'),
    unknownWhileSaving: unknownErrorWhile('saving settings'),
    /** Ours: the refusals and the e-mail test's failures, each on the field it names. */
    pageTitle: 'Reseller Admin',
    providerPageTitle: 'Reseller settings',
    providerButton: 'Reseller settings',
    saveButton: 'Save',
    providerTabsDisabled: 'Look and feel and email settings are set by the reseller itself.',
    notAReseller: 'Reseller settings are not enabled for this customer',
    providerAccountOnly: 'The provider admin edits only the account settings of a reseller',
    customUrlTaken: 'This custom URL is already used by another reseller',
    currentImage: 'Current image',
    noImage: 'None (the generic logo is shown)',
    newImage: 'New image',
    defaultColour: 'Default',
    emailPasswordHint: 'Enter the password again each time: it is tested before it is saved and never shown.',
    emailHostNotFound: 'The email host could not be found',
    emailHostRefused:
      'The email host resolves to an address that is not allowed (loopback, private or link-local network)',
    emailConnectFailed: 'Could not connect to the email host on this port',
    emailStartTlsMissing:
      'The email server on this port offers no secure connection (STARTTLS): use a port that offers it, or 465',
    emailTlsFailed:
      'A secure (TLS) connection to the email host failed: its certificate is not trusted or does not name this host',
    emailAuthFailed: 'The email server refused this username and password',
    emailSenderRefused: 'The email server refused to send from this address',
    emailNeedsSupportAddress:
      'Save the account settings with a support email address first: the test message is sent there',
    testMailSubject: 'Test message: email settings',
  },

  /** Backup packages (000 §2, §4, §8). */
  backupPackage: {
    edited: 'Backup package edited successfully!',
    requested: 'Backup package requested successfully!',
    upDowngradeRequested: 'Backup package up/downgrade requested!',
    beingDeleted: 'Backup package is being deleted',
    statusUpdated: 'Backup package status has been updated',
    /** Ours, by the '... but some errors occurred.' rule of 000 §8. */
    editedWithErrors: someErrorsOccurred('Backup package edited'),
    requestedWithErrors: someErrorsOccurred('Backup package requested'),
    upDowngradeRequestedWithErrors: someErrorsOccurred('Backup package up/downgrade requested'),
    beingDeletedWithErrors: someErrorsOccurred('Backup package is being deleted'),
    statusUpdatedWithErrors: someErrorsOccurred('Backup package status has been updated'),
    /** 000 §8 describes these as 'similar texts for ... editing, purchasing and up/downgrading packages'. */
    unknownWhileEditing: unknownErrorWhile('editing backup package'),
    unknownWhilePurchasing: unknownErrorWhile('purchasing backup package'),
    unknownWhileUpDowngrading: unknownErrorWhile('up/downgrading backup package'),
    /** Ours. */
    unknownWhileDeleting: unknownErrorWhile('deleting backup package'),
    unknownWhileChangingStatus: unknownErrorWhile('changing backup package status'),
    empty: 'There are no backup packages',
  },

  /** Backup package requests (000 §2, §8). */
  packageRequest: {
    approved: 'Backup package request approved successfully.',
    declined: 'Backup package request declined successfully.',
    /** Ours. */
    approvedWithErrors: someErrorsOccurred('Backup package request approved'),
    declinedWithErrors: someErrorsOccurred('Backup package request declined'),
    /** 000 §8 'similar texts for approving, declining ...'. */
    unknownWhileApproving: unknownErrorWhile('approving backup package request'),
    unknownWhileDeclining: unknownErrorWhile('declining backup package request'),
    empty: 'There are no backup package requests',
    /** Ours: an approve or decline of a request someone already decided. */
    notPending: 'This backup package request has already been approved or declined.',
    /** Ours: the storage item is not one the request may link. */
    storageItemNotAvailable: 'Storage item is not available for this request',
    /** Ours: the approve dialog's select and table headings. */
    chooseStorageItem: 'Choose a storage item',
    approveTitle: 'Approve backup package request',
    declineTitle: 'Decline backup package request',
    declineQuestion: 'Are you sure you want to decline this backup package request?',
    /** Ours: the page, its table, the buttons and the customer's own table. */
    pageTitle: 'Package Requests',
    tableLabel: 'Backup package requests',
    myTableLabel: 'My backup package requests',
    approve: 'Approve',
    decline: 'Decline',
    columns: {
      type: 'Type',
      customer: 'Customer',
      user: 'User',
      package: 'Package',
      requestedPackage: 'Requested package',
      status: 'Status',
      requestedAt: 'Requested',
      decidedAt: 'Decided',
      actions: 'Actions',
    },
  },

  /** Backup machines (001 §2, §5, §8; 002 §2.6). */
  backupMachine: {
    edited: 'Backup machine edited successfully!',
    updatedWithErrors: someErrorsOccurred('Backup machine updated'),
    unknownWhileEditing: unknownErrorWhile('editing backup machine'),
    beingDeleted: 'Backup machine is being deleted',
    statusUpdated: 'Backup machine status has been updated',
    storageRefreshing: 'Backup machine storage space is being refreshed',
    /** Ours. */
    beingDeletedWithErrors: someErrorsOccurred('Backup machine is being deleted'),
    statusUpdatedWithErrors: someErrorsOccurred('Backup machine status has been updated'),
    storageRefreshingWithErrors: someErrorsOccurred('Backup machine storage space is being refreshed'),
    unknownWhileDeleting: unknownErrorWhile('deleting backup machine'),
    unknownWhileChangingStatus: unknownErrorWhile('changing backup machine status'),
    unknownWhileRefreshingStorage: unknownErrorWhile('refreshing backup machine storage space'),
    /** Ours (issue 16): a new storage key for a machine on S3. */
    storageKeyRotatedWithErrors: someErrorsOccurred('Storage key replaced'),
    unknownWhileRotatingStorageKey: unknownErrorWhile('replacing the storage key'),
    /** Log upload (001 §8). */
    logUploadSubmitted: 'Command submitted successfully!',
    logUploadSubmittedWithErrors: someErrorsOccurred('Command submitted'),
    unknownWhileSubmittingLogUpload: unknownErrorWhile('submitting command'),
    /** Ours: the server's answers to machine commands, log files and storage refresh (001 §7). */
    notFound: 'The backup machine was not found.',
    logFileNotFound: 'The log file was not found for this backup machine.',
    logFilePlainText: 'A log file is uploaded as text/plain.',
    actionNeeded: 'Use exactly one of ?delete=true, ?status={newStatus} or ?refresh=true.',
    namePlaceholder: 'Name is required',
    descriptionPlaceholder: 'Description is required',
    empty: 'There are no backup machines',
    // Ours: the machine pages and dialogs (001 §2, §4) name these without quoting them.
    deleteOnlySuspended: 'A backup machine can be deleted only when it is suspended.',
    statusChangeNotAllowed: 'This status change is not allowed for the backup machine.',
    assignedUserFixed: 'The assigned user cannot be changed here.',
    ownTitle: 'Backup Machines',
    pageTitle: 'Backup machine',
    detailsTitle: 'Details',
    tasksTitle: 'Backup tasks',
    online: 'Online',
    offline: 'Offline',
    lastSeen: 'Last seen',
    neverSeen: 'Never',
    editButton: 'Edit',
    editDialogTitle: 'Edit backup machine',
    editSubmit: 'Save',
    changeStatusButton: 'Change status',
    changeStatusTitle: 'Change status of backup machine',
    newStatusLabel: 'New status',
    changeStatusSubmit: 'Change status',
    deleteButton: 'Delete',
    deleteTitle: 'Delete backup machine',
    deleteSubmit: 'Delete',
    typeNameToDelete: 'Type the name of the backup machine to confirm its deletion:',
    typeNameToChangeStatus: 'Type the name of the backup machine to confirm the status change:',
    deleteWarning: 'Deleting the backup machine removes all its backups from storage, its tasks and its history.',
    logUploadButton: 'Request upload of log files',
    logUploadTitle: 'Request upload of log files',
    logUploadSubmit: 'Request upload',
    logFilesButton: 'View log files',
    logFilesTitle: 'Log files',
    noLogFiles: 'No log files have been uploaded',
    refreshStorageButton: 'Refresh storage space',
    refreshStorageTitle: 'Refresh storage space',
    refreshStorageConfirm: 'Ask the backup machine to measure its storage space again?',
    refreshStorageSubmit: 'Refresh',
    rotateStorageKeyButton: 'Replace storage key',
    rotateStorageKeyTitle: 'Replace storage key',
    rotateStorageKeyConfirm:
      'Give this machine a new storage key? Its agent is sent the new key at once and the old key stops working; ' +
      'a backup running now may have to be run again.',
    rotateStorageKeySubmit: 'Replace key',
    messageLogButton: 'View message log',
    messageLogTitle: 'Message log',
    filter: 'Filter',
    noMessages: 'There are no messages',
    close: 'Close',
    manage: 'Manage',
    view: 'View',
    columns: {
      name: 'Name',
      status: 'Status',
      description: 'Description',
      operatingSystem: 'Operating system',
      storageSpace: 'Storage space',
      assignedUser: 'Assigned user',
      numberOfBackupTasks: 'Number of backup tasks',
      actions: 'Actions',
      online: 'Connection',
      time: 'Time',
      messageType: 'Type',
      backupTaskId: 'Backup task id',
      actionId: 'Action id',
      message: 'Message',
      fileName: 'File name',
      lastModified: 'Last modified',
    },
  },

  /** Customer account page (001 §2, §8). */
  account: {
    editDialogTitle: 'Edit account details',
    edited: 'Account edited successfully!',
    updatedWithErrors: someErrorsOccurred('Account updated'),
    unknownWhileEditing: unknownErrorWhile('editing account'),
    /** Ours: userIdToBeAdmin names no active admin of the account. */
    adminNotCandidate: 'Must choose an active admin user of this account',
    // Ours: the page of 001 §2 names these rows and controls without quoting them.
    title: 'Account Settings',
    detailsTitle: 'Account details',
    usersTitle: 'Users',
    editButton: 'Edit account details',
    editSubmit: 'Save',
    logoTitle: 'Logo',
    logoAlt: 'Logo',
    rows: {
      status: 'Status',
      companyName: 'Company name',
      administratorName: 'Administrator name',
      administratorEmail: 'Administrator email',
      allowProviderMachineControl: 'Allow provider machine control',
    },
  },

  /** Restic diagnostics (001 §2, §8). */
  resticCommand: {
    submitted: 'Command submitted successfully.',
    submittedWithErrors: someErrorsOccurred('Command submitted'),
    unknownWhileSubmitting: unknownErrorWhile('submitting command'),
    cancellationSubmitted: 'Command cancellation submitted.',
    cancellationSubmittedWithErrors: someErrorsOccurred('Command cancellation submitted'),
    unknownWhileCancelling: unknownErrorWhile('cancelling command'),
    deleted: 'Command deleted successfully.',
    /** Ours. */
    deletedWithErrors: someErrorsOccurred('Command deleted'),
    unknownWhileDeleting: unknownErrorWhile('deleting command'),
    noCommands: 'No commands available',
    stopButton: 'Stop',
    // Ours: the server's answers (issue #5).
    commandNotFound: 'The command was not found on this backup machine.',
    alreadyFinished: 'The command has already finished.',
    stillRunning: 'The command is still running: stop it before deleting it.',
  },

  /** The restic diagnostics dialog's labels (ours: 001 §2 names the dialogs and the tab's fields, not their words). */
  resticDiagnostics: {
    openButton: 'Restic diagnostics',
    submitButton: 'Submit restic command',
    submitDialogTitle: 'Submit restic command',
    submitDialogSubmit: 'Submit',
    stopDialogTitle: 'Cancel command',
    deleteDialogTitle: 'Delete command',
    deleteButton: 'Delete',
    deleteIcon: 'Delete command',
    running: 'Running',
    closeButton: 'Close',
    rows: {
      commandLine: 'Command',
      timeStarted: 'Time started',
      timeFinished: 'Time finished',
      status: 'Status',
      exitCode: 'Exit code',
      output: 'Output',
    },
  },

  /** Exit code texts of realtime commands and transfers (001 §8), declared in enums.ts. */
  exitCodes: COMMAND_RESULT_TEXTS,

  /** Storage accounts, buckets, policies, storage users and keys (001 §2, §8). */
  storageAccount: {
    empty: 'There are no storage accounts',
    defaultBadge: 'Default',
    defaultUpdated: 'Updated default storage account.',
    migrateButton: 'Migrate',
    migrateDialogTitle: 'Migrate Storage Account',
    chooseDestinationAccount: 'Must choose a destination account',
    migrationSucceeded: 'Storage Account migration succeeded.',
    migrationPerformedWithErrors: someErrorsOccurred('Migration performed'),
    unknownWhilePerformingMigration: unknownErrorWhile('performing migration'),
    noBuckets: 'No buckets found',
    showOnlyManaged: 'Show only managed',
    showOnlyPolicyInconsistent: 'Show only policy inconsistent',
    managePrincipalsTab: 'Manage principals',
    rawPolicyTab: 'Raw policy',
    noPrincipals: 'No principals found',
    noUsers: 'This storage account has no users',
    noAccessKeys: 'This storage account has no access keys',
    /** Warning-style success toasts of the storage user and principal deletes. */
    userDeleted: 'User deleted',
    principalDeleted: 'Principal deleted',
    /** Ours. */
    userDeletedWithErrors: someErrorsOccurred('User deleted'),
    principalDeletedWithErrors: someErrorsOccurred('Principal deleted'),
    unknownWhileDeletingUser: unknownErrorWhile('deleting storage user'),
    unknownWhileDeletingPrincipal: unknownErrorWhile('deleting principal'),
  },

  /** Storage locations (001 §2, §5, §8). */
  storageLocation: {
    empty: 'No configured storage locations',
    chooseStorageAccount: 'Must choose a storage account',
    created: 'Storage location created.',
    createdWithErrors: someErrorsOccurred('Storage location created'),
    unknownWhileCreating: unknownErrorWhile('creating storage location'),
    deleted: 'Storage location has been deleted',
    madeDefault: 'Storage location is now the default for this customer',
    /** Ours. */
    deletedWithErrors: someErrorsOccurred('Storage location has been deleted'),
    madeDefaultWithErrors: someErrorsOccurred('Storage location is now the default for this customer'),
    unknownWhileDeleting: unknownErrorWhile('deleting storage location'),
    unknownWhileMakingDefault: unknownErrorWhile('making storage location default'),
  },

  /** Backup package migrations (001 §2, §5, §8). */
  migration: {
    empty: 'No migrations',
    migrateButton: 'Migrate',
    createDialogTitle: 'Initialize backup package migration',
    chooseDestinationLocation: 'Must choose a destination location',
    initialized: 'Backup package migration initialized.',
    initializedWithErrors: someErrorsOccurred('Migration initialized'),
    unknownWhileInitializing: unknownErrorWhile('initializing migration'),
    cancellationSubmitted: 'Migration cancellation submitted.',
    cancellationSubmittedWithErrors: someErrorsOccurred('Migration cancellation submitted'),
    unknownWhileCancelling: unknownErrorWhile('cancelling migration'),
    rolledBack: 'Migration rolled back.',
    rolledBackWithErrors: someErrorsOccurred('Migration rolled back'),
    unknownWhileRollingBack: unknownErrorWhile('rolling back migration'),
    performedWithErrors: someErrorsOccurred('Migration performed'),
    unknownWhilePerforming: unknownErrorWhile('performing migration'),
  },

  /** Failures of an object storage service (ours), declared in storage-service.ts with the policy difference texts. */
  storageService: STORAGE_SERVICE_TEXTS,

  /** The live channel (001 §8, 002 §8.3). */
  liveChannel: {
    remoteMachineConnectionFailed: 'Could not establish connection to remote machine.',
    connectionFailed: 'Could not establish websocket connection',
    invalidMessage: 'Invalid websocket message received',
    backupMachineCommunicationError: 'Error in communicating with backup machine.',
    treeItemsError: 'Error in retrieving tree items from backup machine.',
    // Ours: the answers of task commands the specification leaves to the server (002 §7.8).
    machineOffline: 'The backup machine is offline; try again when it is connected.',
    remoteManagementDisabled: 'Remote management is disabled for this backup machine.',
    readOnlyUser: 'Your account may look but not change anything.',
    taskNotFound: 'The backup task was not found on this backup machine.',
    taskNotRunnable: 'The backup task cannot run now (it is paused or its machine, package or customer is stopped).',
    taskAlreadyRunning: 'The backup task is already running.',
    taskStatusChoice: 'Status must be ACTIVE or PAUSED.',
    taskCreated: 'Backup task created.',
    taskUpdated: 'Backup task updated.',
    taskStarted: 'Backup task started.',
    taskPaused: 'Backup task paused.',
    taskResumed: 'Backup task resumed.',
    taskDeleted: 'Backup task deleted.',
  },

  /** Ours: demo mode's mail viewer, for the provider admin (the specification has no demo). */
  demoMails: {
    title: SHELL_TEXTS.demoMailsTitle,
    empty: 'No mails yet',
  },

  /** The item tree widget (001 §8, §9). */
  tree: {
    noItems: 'No items to select',
    loading: 'Loading...',
  },

  /** Users of a customer (001 §6, §8; 002 §5.1, §5.2, §8). */
  user: {
    added: 'User added successfully!',
    edited: 'User edited successfully!',
    linked: 'User linked successfully!',
    unlinked: 'User unlinked successfully!',
    deleted: 'User deleted successfully!',
    addedWithErrors: someErrorsOccurred('User added'),
    editedWithErrors: someErrorsOccurred('User edited'),
    linkedWithErrors: someErrorsOccurred('User linked'),
    unlinkedWithErrors: someErrorsOccurred('User unlinked'),
    deletedWithErrors: someErrorsOccurred('User deleted'),
    unknownWhileAdding: unknownErrorWhile('adding user'),
    unknownWhileEditing: unknownErrorWhile('editing user'),
    unknownWhileLinking: unknownErrorWhile('linking user'),
    unknownWhileUnlinking: unknownErrorWhile('unlinking user'),
    unknownWhileDeleting: unknownErrorWhile('deleting user'),
    /** Ours: the placeholder 'says to leave blank to leave unchanged' (002 §5.1). */
    passwordUnchangedPlaceholder: 'Leave blank to leave unchanged',
    noPackagesToLink: 'No packages to link to',
    naForSuperAdmin: 'N/A for super admin',
    unlink: 'Unlink',
    cannotUnlink: 'Cannot unlink',
    cannotDeleteYourself: 'Cannot delete yourself',
    cannotDeleteSuperAdmin: 'Cannot delete super admin user',
    cannotDeleteLinked: 'User has linked packages and/or machines, cannot be deleted',
    cannotDeleteBoltAdmin: 'Cannot delete bolt admin user',
    deletionDisabled: 'Deletion disabled',
    // Ours: the server's answers to user changes the dialogs cannot offer.
    superAdminHasEveryPackage: 'A super admin has every backup package already',
    notUnlinkCall: 'Use ?unlink=true to unlink the user from the backup package',
    // Ours: the screens of 001 §2 and 002 §2.4 name these controls, titles and columns without quoting them.
    columns: {
      firstName: 'First name',
      surname: 'Surname',
      status: 'Status',
      role: 'Role',
      email: 'Email',
      contactNumber: 'Contact number',
      readOnly: 'Read only',
      linkedPackages: 'Number of linked packages',
      linkedMachines: 'Number of linked machines',
      actions: 'Actions',
    },
    empty: 'There are no users',
    tableLabel: 'Users',
    manage: 'Manage',
    view: 'View',
    addButton: 'Add user',
    bulkImportButton: 'Bulk import users',
    addDialogTitle: 'Add user',
    editDialogTitle: 'Edit user',
    addSubmit: 'Add',
    editSubmit: 'Save',
    editButton: 'Edit',
    linkButton: 'Link to backup package',
    linkDialogTitle: 'Link user to backup package',
    linkSubmit: 'Link',
    deleteButton: 'Delete',
    deleteDialogTitle: 'Delete user',
    deleteSubmit: 'Delete',
    unlinkDialogTitle: 'Unlink user from backup package',
    unlinkSubmit: 'Unlink',
    summaryTitle: 'User details',
    packagesTitle: 'Backup packages',
    machinesTitle: 'Backup machines',
    noPackages: 'There are no backup packages',
    packageColumns: {
      name: 'Name',
      status: 'Status',
      storageQuota: 'Storage Quota',
      numberOfBackupMachines: 'Number of backup machines',
      actions: 'Actions',
    },
    machineColumns: {
      name: 'Name',
      status: 'Status',
      description: 'Description',
      operatingSystem: 'Operating system',
      storageSpace: 'Storage space',
      numberOfBackupTasks: 'Number of backup tasks',
      actions: 'Actions',
    },
  },

  /** Bulk user import (002 §5.3, §8.1, §8.2). */
  userImport: {
    imported: 'Users imported successfully!',
    importedWithErrors: someErrorsOccurred('Users imported'),
    unknownWhileImporting: unknownErrorWhile('importing users'),
    fileMayHaveChanged: 'File may have changed since last upload, please re-select.',
    noneImported: 'No users imported due to validation errors:',
    notAllImported: 'Not all users imported due to processing errors:',
    seeAll: 'See all',
    importErrorsTitle: 'Import errors',
    validationErrorsTitle: 'Validation errors',
    /** Ours. */
    fileNotXlsx: 'Only .xlsx files are accepted',
    /** Ours: the server's answers about the file as a whole (400 on the file field). */
    fileUnreadable: 'The file is not a readable .xlsx spreadsheet',
    noUsers: 'The spreadsheet has no users to import',
    // Ours: the dialog of 002 §2.4 and §5.3.
    dialogTitle: 'Bulk import users',
    exampleFile: 'Download the example file',
    exampleFileHint: 'Fill in one user per row, in the columns of the example file.',
    fileLabel: 'Spreadsheet (.xlsx)',
    skipAlreadyExisting: 'Skip users that already exist',
    importSubmit: 'Import',
    close: 'Close',
  },

  /** Sign-up of a new customer (ours: the specification names the NEW_SIGNUP request, not the page). */
  signUp: {
    title: 'Sign up',
    intro: 'Open an account for your company. Your backup package is set up once the provider approves it.',
    submit: 'Sign up',
    submitted:
      'Thank you for signing up! Your request awaits approval. You can already sign in with your e-mail address and password.',
    signInLink: 'Sign in',
    alreadyHaveAccount: 'Already have an account?',
    noAccountYet: SIGN_IN_TEXTS.noAccountYet,
    signUpLink: SIGN_IN_TEXTS.signUpLink,
    templatePlaceholder: 'Choose a backup package',
    chooseTemplate: 'Must choose a backup package',
    signedUpWithErrors: someErrorsOccurred('Signed up'),
    unknownWhileSigningUp: unknownErrorWhile('signing up'),
  },

  /** Customer administration (002 §2.5, §8.4). */
  customer: {
    beingDeleted: 'Customer is being deleted',
    statusUpdated: 'Customer status has been updated',
    whmcsServerUpdated: 'Customer WHMCS server has been updated',
    pluginSettingsSaved: 'Customer plugin settings have been saved',
    /** The volume snapshots dialog (002 §7.3). */
    backupTaskUpdated: 'Backup task has been updated',
    /** Ours. */
    beingDeletedWithErrors: someErrorsOccurred('Customer is being deleted'),
    statusUpdatedWithErrors: someErrorsOccurred('Customer status has been updated'),
    whmcsServerUpdatedWithErrors: someErrorsOccurred('Customer WHMCS server has been updated'),
    pluginSettingsSavedWithErrors: someErrorsOccurred('Customer plugin settings have been saved'),
    backupTaskUpdatedWithErrors: someErrorsOccurred('Backup task has been updated'),
    unknownWhileDeleting: unknownErrorWhile('deleting customer'),
    unknownWhileChangingStatus: unknownErrorWhile('changing customer status'),
    unknownWhileChangingWhmcsServer: unknownErrorWhile('changing customer WHMCS server'),
    unknownWhileSavingPluginSettings: unknownErrorWhile('saving customer plugin settings'),
    unknownWhileUpdatingBackupTask: unknownErrorWhile('updating backup task'),
    /** Ours: the current billing server is left out of the choices (002 §5.4). */
    sameWhmcsServer: 'Must choose a billing server other than the current one',
    /** Ours (002 §5.5). */
    volumeSnapshotsWindowsOnly: 'Volume snapshots can be enabled only for Windows machines',
    // Ours: the server's answers to customer changes the dialogs do not offer (002 §4.1, §4.5).
    deleteOnlySuspended: 'A customer can be deleted only when it is suspended',
    resellerHasCustomers: 'This reseller still has customers of its own: delete them first',
    cannotMakeReseller: 'Only a customer of the provider that is not a reseller yet can be made a reseller',
    // Ours: the screens of 002 §2.5 name these tables, dialogs and controls without quoting them.
    customersTitle: 'Customers',
    resellersTitle: 'Resellers',
    myCustomersTitle: 'My Customers',
    adminAreaCrumb: 'Admin Area',
    dashboardCrumb: 'Dashboard',
    searchLabel: 'Search',
    searchPlaceholder: 'Company, admin name or e-mail',
    empty: 'There are no customers',
    noResellers: 'There are no resellers',
    noCustomersToMakeResellers: 'There are no customers that can be made resellers',
    manage: 'Manage',
    select: 'Select',
    columns: {
      name: 'Name',
      superAdmin: 'Super admin',
      type: 'Type',
      status: 'Status',
      numberOfBackupPackages: 'Number of backup packages',
      actions: 'Actions',
    },
    rows: {
      companyName: 'Company name',
      status: 'Status',
      storedStatus: 'Stored status',
      type: 'Type',
      superAdminName: 'Super admin name',
      superAdminEmail: 'Super admin email',
      parentReseller: 'Reseller',
      billingServer: 'Billing server',
      cpanelPluginEnabled: 'cPanel plugin enabled',
      allowProviderMachineControl: 'Allow provider machine control',
    },
    detailsTitle: 'Details',
    usersTitle: 'Users',
    packagesTitle: 'Backup packages',
    noPackages: 'There are no backup packages',
    packageColumns: {
      name: 'Name',
      status: 'Status',
      storageSpace: 'Storage space',
      numberOfBackupMachines: 'Number of backup machines',
      numberOfChildCustomerPackages: 'Number of child customer packages',
      storageAccount: 'Storage account',
      actions: 'Actions',
    },
    changeStatusButton: 'Change status',
    changeStatusTitle: 'Change status of customer',
    newStatusLabel: 'New status',
    changeStatusSubmit: 'Change status',
    deleteButton: 'Delete',
    deleteTitle: 'Delete customer',
    deleteSubmit: 'Delete',
    pluginSettingsButton: 'Plugin settings',
    pluginSettingsTitle: 'Edit customer plugin settings',
    pluginSettingsSubmit: 'Save',
    newResellerButton: 'New reseller',
    selectResellerTitle: 'Select new reseller',
    makeResellerButton: 'Make reseller',
    makeResellerTitle: 'Make reseller',
    makeResellerSubmit: 'Make reseller',
    close: 'Close',
    myCustomersLink: 'Manage my customers',
  },

  /** Backup tasks, runs, snapshots and downloads (002 §2.6, §4, §5.6, §5.8, §8). */
  task: {
    empty: 'There are no backup tasks',
    noItems: 'There are no items',
    runDialogTitle: 'Execute backup task',
    unlimited: UNLIMITED_TEXT,
    viewLog: 'View log',
    maximumAvailable: 'Maximum available',
    saved: 'Backup task saved',
    /** The task warnings are quoted without a final period (002 §8.1). */
    savedWithErrors: 'Backup task saved but some errors occurred',
    beingStarted: 'Backup task is being started',
    beingStartedWithErrors: 'Backup task being started but some errors occurred',
    paused: 'Backup task paused',
    pausedWithErrors: 'Backup task paused but some errors occurred',
    unpaused: 'Backup task unpaused',
    unpausedWithErrors: 'Backup task unpaused but some errors occurred',
    beingDeleted: 'Backup task is being deleted',
    beingDeletedWithErrors: 'Backup task being deleted but some errors occurred',
    archiveBeingDeleted: 'Backup snapshot archive is being deleted',
    downloadStarting: 'Download starting shortly....',
    unknownWhileInitiatingDownload: unknownErrorWhile('initiating download'),
    /** Validation of the task form (002 §5.6). */
    scheduleRequired: SCHEDULE_MESSAGES.selectSchedule,
    itemsRequired: 'At least one item is required.',
    snapshotsToKeepRange: 'Must be between 1 and 100000.',
    uploadBandwidthRange: 'Must be between 1 and 100,000,000.',
    pruningRange: 'Must be between 1 and 100.',
    seedPathRequired: 'Seed disk path must be chosen.',
    downloadItemsRequired: 'At least one item must be selected.',
    /** Ours: the frequency warning shown when snapshots are turned on (002 §4.3, §9). */
    snapshotFrequencyWarning: 'At most one snapshot per week is kept for each task.',
    /** Ours (002 §4.3: the seeding option shows only when adding a files-and-folders task). */
    seedingNotAvailable: 'A seed can be created only when adding a files and folders task',
    /** Ours: a selected item of another kind than the task's type. */
    itemTypeMismatch: 'Item does not match the type of the task',
  },

  /** Ours: the task page's answers the specification leaves open (002 §7.5). */
  taskPage: {
    actionNotBusy: 'Only an initiated or running action can be cancelled.',
  },

  /**
   * Ours (issue 29): the machine's remote-management button (002 §4.2, §6) and why a task control is unavailable,
   * shown on the button (a tooltip) and on a line under it before anyone fills a form. The read-only, offline and
   * remote-management-off reasons are the live channel's answers above, so the page says what the server would.
   */
  remoteManagement: {
    label: 'Remote management',
    on: 'On',
    off: 'Off',
    turnOn: 'Turn remote management on',
    turnOff: 'Turn remote management off',
    turnedOn: 'Remote management turned on',
    turnedOff: 'Remote management turned off',
    turnedOnWithErrors: someErrorsOccurred('Remote management turned on'),
    turnedOffWithErrors: someErrorsOccurred('Remote management turned off'),
    unknownWhileSwitching: unknownErrorWhile('switching remote management'),
    /** Why the caller may not switch it. */
    customerOnly: "Only the customer's own users may switch remote management.",
    /** Why a task control is unavailable (the other reasons are liveChannel's readOnlyUser, remoteManagementDisabled, machineOffline). */
    providerControlOff: 'The customer does not allow provider machine control.',
    taskAwaitingSeed: 'The backup task awaits its seed.',
    taskBeingDeleted: 'The backup task is being deleted.',
    taskDeletionFailed: 'The deletion of the backup task failed; it can only be deleted again.',
  },

  /** The schedule picker and the task form's schedule (000 §5, 002 §5.6), declared in schedule.ts. */
  schedule: SCHEDULE_MESSAGES,

  /** Exclusions (002 §5.7), declared in exclusions.ts. */
  exclusion: EXCLUSION_MESSAGES,

  /** Seeding (issue #5; ours), declared in seeding.ts like the groups above (it must not import this file). */
  seeding: SEEDING_MESSAGES,

  /** Downloads and snapshot archive deletion (002 §2.6, §5.8, §7.5, §7.6; issue 14). */
  restore: {
    downloadButton: 'Download',
    deleteArchiveButton: 'Delete archive',
    downloadTitle: 'Download backed-up items',
    deleteArchiveTitle: 'Delete snapshot archive',
    deleteArchivePrompt: 'Type the name of the backup task to delete this snapshot archive:',
    downloadAll: 'Download all items',
    treeLabel: 'Backed-up items',
    treeEmpty: 'This folder is empty',
    treeLoading: 'Loading...',
    treeError: 'The items of this snapshot could not be read.',
    unknownWhileDeletingArchive: unknownErrorWhile('deleting the snapshot archive'),
    runNotFound: 'Backup run not found',
    snapshotNotFound: 'Snapshot archive not found',
    noSnapshot: 'This run has no snapshot to download',
    busy: 'Not available while an action of the task is in progress or the task is being deleted',
    downloadNotValid: 'This download is no longer valid; start it again',
    archiveNotDeletable: 'This snapshot archive cannot be deleted now',
    // Restore to the machine (issue 14; ours, the specification has no screen for it).
    restoreButton: 'Restore',
    restoreTitle: 'Restore backed-up items to the machine',
    restoreAll: 'Restore all items',
    restoreTargetOriginal: 'Original place',
    restoreTargetFolder: 'Another folder',
    restoreFolderHelp:
      'An absolute folder of the backup machine, typed or picked among its folders; each item keeps its full path below it.',
    restoreFolderTree: 'Folders of the backup machine',
    restoreOverwriteWarning:
      'Restoring to the original place overwrites the files of the same name on the machine with their backed-up versions.',
    restoreSubmit: 'Start restore',
    restoreStarted: 'Restore started.',
    unknownWhileStartingRestore: unknownErrorWhile('starting the restore'),
    targetFolderNotAbsolute: 'Target folder must be an absolute folder of the backup machine',
    noSnapshotToRestore: 'This run has no snapshot to restore',
  },

  /** Destructive confirmations by typing a name (000 §5, 001 §5, 002 §5.4, §5.8). */
  confirmByName: {
    packageDeletion: 'Must complete backup package name to confirm deletion',
    packageStatusChange: 'Must complete backup package name to confirm status change',
    machineDeletion: 'Must complete backup machine name to confirm deletion',
    machineStatusChange: 'Must complete backup machine name to confirm status change',
    customerDeletion: "Must complete customer admin's name to confirm deletion",
    customerStatusChange: "Must complete customer admin's full name to confirm status change",
    customerWhmcsServerChange: "Must complete customer admin's full name to confirm WHMCS server change",
    storageLocationDeletion: "Must complete storage location's name to confirm deletion",
    storageLocationMakeDefault: "Must complete storage location's name to confirm",
    archiveDeletion: 'Must complete correct backup task name to confirm deletion of archive',
    taskDeletion: 'Must complete correct backup task name to confirm deletion',
  },

  /**
   * The provider's task dashboards (002 §2.2 /boltadmin/backuptasks/statusoverview, §2.6) and the 'Edit
   * backup task' dialog (002 §2.5, §5.5). The spec names the tables and their columns without quoting
   * titles; these are ours.
   */
  taskOverview: {
    title: 'Task Status Overview',
    subtitle: 'Every backup task of the provider',
    runningTitle: 'Currently running tasks',
    nextPeriodTitle: 'Tasks running in the next hour',
    beingDeletedTitle: 'Tasks being deleted',
    runningEmpty: 'No tasks are running',
    nextPeriodEmpty: 'No tasks are due to run in the next hour',
    beingDeletedEmpty: 'No tasks are being deleted',
    taskStatusPie: 'Task status',
    customerTaskStatusPie: 'Customer task status',
    machineTaskStatusPie: 'Machine task status',
    columns: {
      name: 'Name',
      status: 'Status',
      customerSuperAdmin: 'Customer super admin',
      customerCompany: 'Customer company',
      backupPackageName: 'Backup package name',
      backupMachineName: 'Backup machine name',
      timeZone: 'Timezone',
      backupSchedule: 'Backup schedule',
      actionType: 'Action',
      progress: 'Progress',
      nextRun: 'Next run',
      actions: 'Actions',
    },
    manage: 'Manage',
    editTask: 'Edit backup task',
    editTaskTitle: 'Edit backup task',
    /** Ours (issue 31): the same dialog's button on the task page, beside the task's own Edit. */
    volumeSnapshotsButton: 'Volume snapshots',
    volumeSnapshotsLabel: 'Volume snapshots enabled',
    volumeSnapshotsHelp:
      'Windows only: restic reads the files from a Volume Shadow Copy, so open files are backed up too.',
    /** Why the Edit button is disabled (002 §5.5, §4.2). */
    notWindows: 'Volume snapshots can be edited only for Windows machines',
    taskBeingDeleted: 'The task is being deleted',
    save: 'Save',
    cancel: 'Cancel',
  },

  /** The backup package pages and their dialogs (000 §2, §4, §5; ours where the spec quotes no text). */
  packagePages: {
    title: 'Backup Packages',
    /** The Backup Packages page's headings (ours): its packages, its requests, the templates on offer. */
    myPackagesTitle: 'My backup packages',
    notFound: 'Backup package not found',
    notEditable: 'Only an active or over quota backup package can be edited',
    notInitializable: 'Only an approved backup package can be initialized',
    initialized: 'Backup package initialized successfully!',
    unknownWhileInitializing: unknownErrorWhile('initializing backup package'),
    deleteOnlySuspended: 'Only a suspended backup package can be deleted',
    statusChangeNotAllowed: 'This status change is not allowed for the backup package',
    actionNeeded: 'Exactly one of status or delete=true must be given',
    columns: {
      name: 'Name',
      status: 'Status',
      storage: 'Storage',
      machines: 'Machines',
      actions: 'Actions',
    },
    manage: 'Manage',
    view: 'View',
    billingProduct: 'Billing',
    edit: 'Edit',
    initialize: 'Initialize',
    editTitle: 'Edit backup package',
    initializeTitle: 'Initialize backup package',
    limitPerMachine: 'Limit backup size per machine?',
    save: 'Save',
    changeStatus: 'Change status',
    changeStatusTitle: 'Change backup package status',
    delete: 'Delete',
    deleteTitle: 'Delete backup package',
    deleteWarning: 'Deleting the backup package removes all its backup machines and every backup of them from storage.',
    typeNameToConfirm: 'Type the name of the backup package to confirm:',
    customerCrumb: 'Customer',
    details: {
      name: 'Name',
      status: 'Status',
      quota: 'Storage quota',
      usage: 'Storage used',
      perMachine: 'Max backup size per machine',
      machineLimit: 'Max number of machines',
      storageLocation: 'Storage location',
      storageAccount: 'Storage account',
    },
    machinesTitle: 'Backup machines',
  },
  /**
   * Buying backup (000 §6, §7; 001 §2): the template table, purchase and up/downgrade. The success and
   * unknown-error toasts are MESSAGES.backupPackage's; the template choice is sign-up's ('Choose a backup
   * package', 'Must choose a backup package'). The rest is ours.
   */
  purchase: {
    purchaseButton: 'Purchase package',
    purchaseTitle: 'Purchase package',
    purchaseSubmit: 'Purchase',
    upgradeButton: 'Upgrade',
    upgradeTitle: 'Upgrade or downgrade package',
    upgradeSubmit: 'Request change',
    templateLabel: 'Backup package',
    templatesTitle: 'Backup packages on offer',
    columns: {
      name: 'Name',
      storageQuota: 'Storage quota',
      maxMachines: 'Max number of machines',
      pricing: 'Pricing',
    },
    noPrice: 'No price',
    pricingLink: 'See prices on our main site',
    // The server's refusals.
    notOnOffer: 'This backup package is not on offer to you',
    currentTemplate: 'Must choose a backup package other than the current one',
    changeNotAllowed:
      'Only an active or over-quota backup package with no change pending can be upgraded or downgraded',
  },

  // --- Billing (WHMCS): the billing system's answers, billing host servers, the billing redirect ---
  /** Ours: the spec names the billing system's failures without quoting them. */
  billing: {
    timeout: 'The billing system did not answer in time',
    unreachable: 'The billing system could not be reached',
    malformed: 'The billing system gave an answer the portal does not understand',
    refusedAddress:
      'The billing system address resolves to an address the portal may not connect to (loopback, private, link-local or cloud metadata)',
    redirected:
      'The billing system redirected the portal too often or to another address: enter the address its API answers at',
    /** Shown where a customer has no billing system: resellers' customers, or none chosen. */
    noBilling: 'Billing is not available for this customer',
    redirecting: 'Opening the billing system...',
    /** 000 §2, §7: the billing system's page for paying all outstanding invoices at once. */
    payNow: 'Pay now',
    /** The provider's billing host servers (001 §2); texts ours. */
    serversTitle: 'Billing host servers',
    serversEmpty: 'There are no billing host servers',
    addServer: 'Add billing server',
    editServer: 'Edit billing server',
    deleteServer: 'Delete billing server',
    testConnection: 'Test connection',
    configured: 'configured',
    notConfigured: 'not set',
    secretKeptHint: 'Leave empty to keep the stored value (same address only)',
    serverAdded: 'Billing server has been added',
    serverAddedWithErrors: someErrorsOccurred('Billing server has been added'),
    serverUpdated: 'Billing server has been updated',
    serverUpdatedWithErrors: someErrorsOccurred('Billing server has been updated'),
    serverDeleted: 'Billing server has been deleted',
    serverDeletedWithErrors: someErrorsOccurred('Billing server has been deleted'),
    unknownWhileAddingServer: unknownErrorWhile('adding billing server'),
    unknownWhileUpdatingServer: unknownErrorWhile('updating billing server'),
    unknownWhileDeletingServer: unknownErrorWhile('deleting billing server'),
    unknownWhileTestingConnection: unknownErrorWhile('testing billing server connection'),
    serverNotFound: 'Billing server not found',
    /** The customer's billing server change (002 §2.5, §5.4); titles ours. */
    changeServerButton: 'Change billing server',
    changeServerTitle: 'Change billing server for customer',
    changeServerSubmit: 'Change billing server',
    noOtherServer: 'There is no other billing server to move the customer to',
  },

  // --- Storage account pages (001 §2): the texts the specification does not quote are ours ---
  storageAccountPages: {
    title: 'Storage Accounts',
    detailsTitle: 'Storage account',
    bucketsTitle: 'Buckets',
    usersTitle: 'Users',
    accessKeysTitle: 'Access keys',
    setDefault: 'Set as default',
    view: 'View',
    yes: 'Yes',
    no: 'No',
    none: 'none',
    add: 'Add storage account',
    edit: 'Edit storage account',
    added: 'Storage account has been added',
    addedWithErrors: someErrorsOccurred('Storage account has been added'),
    unknownWhileAdding: unknownErrorWhile('adding storage account'),
    updated: 'Storage account has been updated',
    updatedWithErrors: someErrorsOccurred('Storage account has been updated'),
    unknownWhileUpdating: unknownErrorWhile('updating storage account'),
    remove: 'Delete storage account',
    removed: 'Storage account has been deleted',
    removedWithErrors: someErrorsOccurred('Storage account has been deleted'),
    unknownWhileRemoving: unknownErrorWhile('deleting storage account'),
    defaultNotRemovable: 'The default storage account cannot be deleted',
    inUseNotRemovable: 'A storage account with managed buckets or storage locations cannot be deleted',
    testConnection: 'Test connection',
    connectionSucceeded: 'Connection succeeded',
    unknownWhileTestingConnection: unknownErrorWhile('testing storage account connection'),
    secretKeptHint: 'Leave empty to keep the stored value (same address only)',
    secretSet: 'set',
    nameTaken: 'A storage account with this name already exists',
    localExists: 'There is already an embedded (LOCAL) storage account',
    typeUnchangeable: 'The type of a storage account cannot be changed',
    userInUse: 'This user belongs to a storage location or backup machine and is removed with it',
    accountOwnUser: "This user holds the storage account's own access key and cannot be deleted here",
    manageCustomer: 'Manage customer',
    managePolicy: 'Manage policy',
    deleteUser: 'Delete user',
    deleteUserTitle: 'Delete storage user',
    deletePrincipal: 'Delete principal',
    deletePrincipalTitle: 'Delete principal',
    differencesTitle: 'Differences from the policy the portal expects',
    entityGone: 'gone',
  },
} as const;

/** Ours: the storage service could not be asked for a bucket's policy. */
export const bucketPolicyUnreadable = (reason: string) => `The bucket policy could not be read: ${reason}`;
/** Ours: the confirmation of a storage account's deletion. */
export const confirmDeleteStorageAccount = (name: string) =>
  `Are you sure you want to delete the storage account ${name}? The portal forgets its users and keys.`;
/** Ours: the confirmation of a storage user's deletion. */
export const confirmDeleteStorageUser = (name: string) =>
  `Are you sure you want to delete the storage user ${name}? Its access keys stop working at once.`;
/** Ours: the confirmation of a principal's removal from a bucket policy. */
export const confirmDeletePolicyPrincipal = (principal: string, bucket: string) =>
  `Remove ${principal} from the policy of bucket ${bucket}?`;

/** Ours: a billing host server's connection test answered. */
export const billingConnectionSucceeded = (version: string) => `Connection succeeded (WHMCS ${version})`;
/** Ours: a billing host server still bills customers. */
export const billingServerInUse = (customers: number) =>
  `The billing server cannot be deleted while ${customers} ${customers === 1 ? 'customer uses' : 'customers use'} it`;
/** Ours: the delete confirmation, in the words of 000 §8's template deletion. */
export const billingServerDeleteQuestion = (description: string) =>
  `Are you sure you want to delete billing server called ${description}?`;

/** Ours: the billing system turned a request down; its own words follow. */
export const billingRefused = (message: string) => `The billing system refused the request: ${message}`;

/** Formats an integer with thousands separators, as the specification writes limits (1,024,000,000,000). */
export function formatLimit(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Generic field messages of 002 §5.1 ('{field} is required', '{field} must be a valid email', '{field} is not valid'). */
export const fieldRequired = (label: string) => `${label} is required`;
export const fieldMustBeEmail = (label: string) => `${label} must be a valid email`;
export const fieldNotValid = (label: string) => `${label} is not valid`;
/** Ours: a name or other display text with a format character (Cf: invisible or direction-changing). */
export const fieldInvisibleCharacters = (label: string) =>
  `${label} cannot contain invisible or direction-changing characters`;
/** Ours: a stored secret goes only to the address it was saved for (DESIGN §8a); another address needs it again. */
export const secretForNewAddress = (label: string) =>
  `${label} is required for a new address: the stored one is only sent to the address it was saved for`;
/** Ours: length and range messages in the same '{field} ...' form. */
export const fieldTooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;
export const fieldTooShort = (label: string, min: number) => `${label} must be at least ${min} characters`;
export const fieldAtLeast = (label: string, min: number, unit = '') =>
  `${label} must be at least ${formatLimit(min)}${unit ? ` ${unit}` : ''}`;
export const fieldAtMost = (label: string, max: number, unit = '') =>
  `${label} must be at most ${formatLimit(max)}${unit ? ` ${unit}` : ''}`;
export const fieldWholeNumber = (label: string) => `${label} must be a whole number`;
/** Ours: restic arguments or flags with an empty part (two spaces in a row, 001 §5). */
export const fieldSingleSpaces = (label: string) => `${label} must be separated by single spaces`;

/** 'Are you sure you want to delete package template called {name}?' (000 §8). */
export const confirmDeletePackageTemplate = (name: string) =>
  `Are you sure you want to delete package template called ${name}?`;

/** The delete user dialog's question (ours: 001 §2 names the dialog without its text). */
export const confirmDeleteUser = (fullName: string) => `Are you sure you want to delete the user ${fullName}?`;

/** The unlink user dialog's question (ours: 001 §2 names the dialog without its text). */
export const confirmUnlinkUser = (fullName: string, packageName: string) =>
  `Are you sure you want to unlink the user ${fullName} from the backup package ${packageName}?`;

/** The make-reseller confirmation (ours: 002 §4.5 names the dialog without its text). */
export const confirmMakeReseller = (customerName: string) =>
  `Make ${customerName} a reseller? It can then sell backup to customers of its own under its own brand.`;

/** The delete customer dialog's warning (ours: 002 §2.5, §4.1 name the dialog without its text). */
export const confirmDeleteCustomer = (customerName: string) =>
  `Delete the customer ${customerName}? Its users are signed out and all of its data, stored backups included, is removed. This cannot be undone.`;

/** The change status dialog's question (ours). */
export const confirmCustomerStatusChange = (customerName: string) =>
  `Change the status of the customer ${customerName}.`;

/**
 * What a customer confirmation asks for (ours, 002 §5.4): the admin's full name, or an empty entry when
 * the customer has no admin name.
 */
export const typeCustomerAdminName = (superAdminFullName: string | null) =>
  superAdminFullName
    ? `Type the customer admin's full name, ${superAdminFullName}, to confirm.`
    : 'The customer has no admin name: leave the field empty to confirm.';

/** Dashboard tab titles (000 §2): '{name} machines' and '{machine} tasks'. */
export const customerMachinesTitle = (customerName: string) => `${customerName} machines`;
export const machineTasksTitle = (machineName: string) => `${machineName} tasks`;

/** 'Displaying X to Y of Z items' of the message log (001 §2). */
export const displayingItems = (from: number, to: number, total: number) =>
  `Displaying ${from} to ${to} of ${total} items`;

/** 'N more error(s)' after the first five import errors (002 §8.2). */
export const moreErrors = (count: number) => `${count} more error(s)`;

/** Ours: sign-ups refused for the rest of the throttle's window (SIGN_UP_THROTTLE). */
export function signUpThrottled(waitSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(waitSeconds / 60));
  return `Too many sign-ups from your address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The server's own 'N users imported' text (002 §8.4). */
export const usersImported = (count: number) => `${count} users imported`;

/** Ours: one problem of a bulk import row, 'Row {n}: {text}' with the spreadsheet's row number (002 §8.2). */
export const importRowProblem = (rowNumber: number, text: string) => `Row ${rowNumber}: ${text}`;

/** Ours: an e-mail address given twice in one import file. */
export const importDuplicateEmail = (firstRowNumber: number) => `Email is already given in row ${firstRowNumber}`;

/** Ours: the import file's first row is not the example's header row. */
export const importWrongHeader = (headers: readonly string[]) =>
  `The first row must hold the column headings of the example file: ${headers.join(', ')}`;

/** Ours: the import file's size and row limits. */
export const importFileTooLarge = (maxMegabytes: number) => `The file must be at most ${maxMegabytes} MB`;
/** Ours: a logo or favicon over the upload limit. */
export const imageTooLarge = (label: string, maxMegabytes: number) => `${label} must be at most ${maxMegabytes} MB`;
/** Ours: the support address the e-mail test writes to was refused by the reseller's server. */
export const emailRecipientRefused = (address: string) =>
  `The email server refused to deliver the test message to the support email address ${address}`;
/** Ours: any other failure of the e-mail test, with the server's own words. */
export const emailTestFailed = (reason: string) => `The test message could not be sent: ${reason}`;
/** Ours: the body of the e-mail settings' test message. */
export const testMailText = (brandName: string) =>
  `This message was sent by the portal to test the email settings of ${brandName}. They have been saved.`;
export const importTooManyRows = (maxRows: number) => `At most ${formatLimit(maxRows)} users can be imported at once`;

/** Ours: a customer status change that 002 §4.1 does not offer, e.g. 'A Suspended customer cannot be changed to Blocked'. */
export const customerStatusChangeRefused = (from: CustomerStatus, to: CustomerStatus) =>
  `A ${CUSTOMER_STATUS_TEXTS[from]} customer cannot be changed to ${CUSTOMER_STATUS_TEXTS[to]}`;

/**
 * Making a customer a reseller (002 §8.1, §8.4). The specification quotes 'The company made a reseller
 * successfully' with the company name included and describes the warning and unknown-error variants;
 * our wording puts the name after 'The company' and keeps the quoted words. Without a name the quoted
 * text is used as it stands.
 */
export function madeReseller(companyName: string): string {
  return `${madeResellerAction(companyName)} successfully`;
}
/** The action the warning toast names (the web's handleSubmitResult adds ' but some errors occurred.'). */
export function madeResellerAction(companyName: string): string {
  return `The company ${named(companyName)}made a reseller`;
}
export function madeResellerWithErrors(companyName: string): string {
  return someErrorsOccurred(madeResellerAction(companyName));
}
export function unknownWhileMakingReseller(companyName: string): string {
  return unknownErrorWhile(`making the company ${named(companyName)}a reseller`);
}
const named = (companyName: string) => (companyName.trim() === '' ? '' : `${companyName.trim()} `);

/** Ours: the questions of the restic diagnostics' Cancel command and Delete command dialogs (001 §2). */
export const stopCommandQuestion = (commandLine: string) => `Stop the running command '${commandLine}'?`;
export const deleteCommandQuestion = (commandLine: string) => `Delete the command '${commandLine}' and its output?`;

/** Ours: a realtime restic command outside the allow-list (issue #5). */
export const resticCommandNotAllowedText = (base: string, allowed: readonly string[]) =>
  `The restic command '${base}' is not allowed here. Allowed commands: ${allowed.join(', ')}.`;

/**
 * Why a realtime command's flags or arguments are refused (ours, issue 29): each names the offending part.
 * `part` is the flag as restic reads it; `written` the text it came from when that differs (a group).
 */
export const REALTIME_COMMAND_TEXTS = {
  flagNotAllowed: (part: string, base: string, written?: string) =>
    `The flag ${part}${written && written !== part ? ` (in ${written})` : ''} is not allowed for restic ${base}.`,
  notAFlag: (part: string) => `'${part}' is not a flag: flags start with '-', arguments go in Arguments.`,
  separatorInFlags: "Leave out '--': the portal puts it before the arguments itself.",
  needsValue: (flag: string) => `The flag ${flag} needs a value.`,
  takesNoValue: (flag: string) => `The flag ${flag} takes no value.`,
  valueNotValid: (flag: string, value: string, expected: string) =>
    `'${value}' is not a valid value for ${flag}: expected ${expected}.`,
  argumentIsFlag: (part: string) => `The argument '${part}' starts with '-': arguments may not, flags go in Flags.`,
  controlCharacter: (part: string) => `'${part}' contains a control character.`,
  catObjectType: (given: string | undefined, allowed: readonly string[]) =>
    given === undefined
      ? `restic cat needs the object type first: one of ${allowed.join(', ')}.`
      : `restic cat may show only ${allowed.join(', ')}, not '${given}'.`,
} as const;

/** 001 §8: the customer's machine queue names the remote machine; the admin queues name the connection. */
export function liveChannelConnectionFailedText(queue: WebsocketQueueType): string {
  return queue === 'CUSTOMER_MACHINE'
    ? MESSAGES.liveChannel.remoteMachineConnectionFailed
    : MESSAGES.liveChannel.connectionFailed;
}

/** Tells a customer's super admin that a package request was declined (ours, as every mail). */
export function packageRequestDeclinedMail(
  firstName: string,
  request: { type: string; packageName: string | null },
): MailMessage {
  const what = request.packageName ? `${request.type} request (${request.packageName})` : `${request.type} request`;
  return {
    subject: 'Your backup package request was declined',
    lines: [
      `Hello ${firstName},`,
      '',
      `Your ${what.charAt(0).toLowerCase()}${what.slice(1)} was declined.`,
      'Contact your provider if you have questions.',
    ],
  };
}

/** The password reset link (a portal path, made absolute on the brand's host), mailed on Forgot password. */
export function passwordResetMail(brandName: string, firstName: string, resetPath: string): MailMessage {
  return {
    subject: `Reset your ${brandName} password`,
    lines: [
      `Hello ${firstName},`,
      '',
      `Someone asked to reset the password of your ${brandName} account.`,
      'Open the link below within 60 minutes to choose a new password (it works once).',
      '',
      'If you did not ask for this, ignore this mail; your password stays as it is.',
    ],
    link: { label: 'Choose a new password', path: resetPath },
  };
}

/**
 * Mailed to the holder of an address someone tried to sign up with: the sign-up page answers as for any
 * sign-up, so only the owner of the address learns that it has an account. The link is the sign-in page.
 */
export function signUpAddressInUseMail(brandName: string, firstName: string): MailMessage {
  return {
    subject: 'Someone tried to sign up with your e-mail address',
    lines: [
      `Hello ${firstName},`,
      '',
      `Someone tried to sign up for ${brandName} with your e-mail address, which already has an account.`,
      'No new account was opened.',
      '',
      "If it was you, sign in instead; if you have forgotten your password, choose 'Forgot password' there.",
      'If it was not you, ignore this mail; your account stays as it is.',
    ],
    link: { label: 'Sign in', path: PAGES.login },
  };
}

/** Mailed to the old address when the sign-in e-mail of an account is changed on the profile. */
export function signInEmailChangedMail(
  brandName: string,
  firstName: string,
  change: { newEmail: string; at: Date },
): MailMessage {
  const at = `${change.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    subject: `The sign-in e-mail of your ${brandName} account was changed`,
    lines: [
      `Hello ${firstName},`,
      '',
      `The sign-in e-mail address of your ${brandName} account was changed to ${change.newEmail} on ${at}.`,
      "From now on you sign in with that address, and the account's mails go there.",
      '',
      'If you did not make this change, someone else knows your password. Sign in with the new address',
      'and your password, change the e-mail address back and choose a new password; if you cannot,',
      'contact your administrator or our support at once.',
    ],
  };
}

/** Ours: a purchase or up/downgrade whose template the billing system sells no product for. */
export const billingProductMissing = (templateName: string) =>
  `The billing system offers no product called '${templateName}'; please contact support`;
