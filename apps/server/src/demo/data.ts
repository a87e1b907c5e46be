import type { CustomerStatus, OsFamily, StorageQuotaUnit } from '@portal/domain';

/** Fixed inputs of the demo: names, companies, templates and branding. */

export type ParentKey = 'provider' | 'northwind' | 'fabrikam';

export interface ResellerBranding {
  key: Exclude<ParentKey, 'provider'>;
  companyName: string;
  domain: string;
  brandName: string;
  customUrl: string;
  supportEmailAddress: string;
  supportPhoneNumber: string;
  mainSiteLink: string;
  termsAndConditionsLink: string;
  appHeaderColour: string;
  appHeaderTextColour: string;
  appBackgroundColour: string;
  functionalBackgroundColour: string;
  functionalButtonColour: string;
  appEnabledButtonColour: string;
  appDisabledButtonColour: string;
  /** A logo and favicon drawn at seed time (the other reseller shows the generic logo with its brand name). */
  withImages: boolean;
  emailHost: string;
  emailPort: number;
  emailUsername: string;
  sendFromEmailAddress: string;
}

export const RESELLERS: readonly ResellerBranding[] = [
  {
    key: 'northwind',
    companyName: 'Northwind Backup',
    domain: 'northwind.test',
    brandName: 'Northwind Cloud Backup',
    customUrl: 'backup.northwind.test',
    supportEmailAddress: 'support@northwind.test',
    supportPhoneNumber: '+44 20 7946 0958',
    mainSiteLink: 'https://www.northwind.test',
    termsAndConditionsLink: 'https://www.northwind.test/terms',
    appHeaderColour: '#1b3a5c',
    appHeaderTextColour: '#ffffff',
    // Issue 31: every colour's text passes WCAG AA (data.test.ts): the buttons' blue is darker than it was.
    appBackgroundColour: '#f3f6fa',
    functionalBackgroundColour: '#e8eef5',
    functionalButtonColour: '#1d6bd0',
    appEnabledButtonColour: '#1d6bd0',
    appDisabledButtonColour: '#a7b4c2',
    withImages: true,
    emailHost: 'smtp.northwind.test',
    emailPort: 587,
    emailUsername: 'portal@northwind.test',
    sendFromEmailAddress: 'backup@northwind.test',
  },
  {
    key: 'fabrikam',
    companyName: 'Fabrikam Data Services',
    domain: 'fabrikam.test',
    brandName: 'Fabrikam SafeVault',
    customUrl: 'safevault.fabrikam.test',
    supportEmailAddress: 'help@fabrikam.test',
    supportPhoneNumber: '+1 206 555 0142',
    mainSiteLink: 'https://www.fabrikam.test/safevault',
    termsAndConditionsLink: 'https://www.fabrikam.test/legal/safevault-terms',
    appHeaderColour: '#4a235a',
    appHeaderTextColour: '#f9e79f',
    appBackgroundColour: '#fbf7fc',
    functionalBackgroundColour: '#f1e6f5',
    functionalButtonColour: '#8e44ad',
    appEnabledButtonColour: '#8e44ad',
    appDisabledButtonColour: '#c7b3cf',
    withImages: false,
    emailHost: 'mail.fabrikam.test',
    emailPort: 465,
    emailUsername: 'safevault@fabrikam.test',
    sendFromEmailAddress: 'no-reply@fabrikam.test',
  },
];

/** The other customers: name, status and who they belong to. */
export const COMPANIES: readonly (readonly [string, CustomerStatus, ParentKey])[] = [
  ['Adatum Corporation', 'ACTIVE', 'provider'],
  ['Alpine Ski House', 'ACTIVE', 'northwind'],
  ['Bellows College', 'ACTIVE', 'fabrikam'],
  ['Best For You Organics', 'SIGNUP_REQUESTED', 'provider'],
  ['Blue Yonder Airlines', 'ACTIVE', 'provider'],
  ['City Power & Light', 'SUSPENDED', 'provider'],
  ['Coho Winery', 'ACTIVE', 'northwind'],
  ['Consolidated Messenger', 'APPROVED', 'provider'],
  ['Fourth Coffee', 'ACTIVE', 'fabrikam'],
  ['Graphic Design Institute', 'BLOCKED', 'provider'],
  ['Humongous Insurance', 'ACTIVE', 'provider'],
  ['Lamna Healthcare', 'ACTIVE', 'northwind'],
  ['Litware Inc', 'SIGNUP_REQUESTED', 'northwind'],
  ['Lucerne Publishing', 'ACTIVE', 'fabrikam'],
  ["Margie's Travel", 'SUSPENDED', 'northwind'],
  ["Munson's Pickles", 'APPROVED', 'fabrikam'],
  ['Nod Publishers', 'ACTIVE', 'provider'],
  ['Northridge Video', 'BLOCKED', 'northwind'],
  ['Proseware Inc', 'ACTIVE', 'provider'],
  ['Relecloud', 'ACTIVE', 'fabrikam'],
  ['School of Fine Art', 'SIGNUP_REQUESTED', 'fabrikam'],
  ['Southridge Video', 'ACTIVE', 'northwind'],
  ['Tailspin Toys', 'ACTIVE', 'provider'],
  ['Trey Research', 'SUSPENDED', 'fabrikam'],
  ['The Phone Company', 'ACTIVE', 'provider'],
  ['VanArsdel Ltd', 'APPROVED', 'northwind'],
  ['Wide World Importers', 'ACTIVE', 'provider'],
  ['Wingtip Toys', 'ACTIVE', 'northwind'],
  ['Woodgrove Bank', 'BLOCKED', 'fabrikam'],
  ['Baldwin Museum of Science', 'ACTIVE', 'fabrikam'],
  ['Fincher Architects', 'SIGNUP_REQUESTED', 'provider'],
  ['Hanson Bakery', 'ACTIVE', 'northwind'],
  ['Kestrel Engineering', 'ACTIVE', 'provider'],
  ['Larkspur Legal', 'SUSPENDED', 'provider'],
  ['Meridian Clinics', 'ACTIVE', 'fabrikam'],
  ['Oakfield Accountants', 'APPROVED', 'provider'],
  ['Pinecrest Schools', 'ACTIVE', 'northwind'],
  ['Quayside Marine', 'SIGNUP_REQUESTED', 'northwind'],
  ['Redwood Analytics', 'ACTIVE', 'provider'],
  ['Sable Logistics', 'BLOCKED', 'provider'],
  ['Thornbury Estates', 'ACTIVE', 'fabrikam'],
  ['Upland Veterinary', 'SUSPENDED', 'northwind'],
  ['Vantage Dental Care', 'ACTIVE', 'provider'],
  ['Willow & Finch Design', 'APPROVED', 'fabrikam'],
  ['Yarrow Foods', 'SIGNUP_REQUESTED', 'provider'],
  ['Zephyr Studios', 'ACTIVE', 'northwind'],
  ['Harbourview Hotels', 'BLOCKED', 'northwind'],
];

export const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloe',
  'Daniel',
  'Emma',
  'Farid',
  'Grace',
  'Hugo',
  'Isla',
  'Jonas',
  'Keira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Pavel',
  'Rosa',
  'Sam',
  'Tariq',
  'Una',
  'Victor',
  'Wen',
  'Yara',
  'Zoe',
  'Amelia',
  'Bruno',
  'Carmen',
  'Dmitri',
  'Elif',
  'Finn',
  'Hannah',
  'Ibrahim',
  'Julia',
  'Kenji',
  'Lucia',
  'Mateo',
  'Nadia',
  'Oscar',
  'Priya',
  'Rafael',
  'Sofia',
  'Thabo',
  'Uma',
  'Valentina',
  'William',
  'Aisha',
  'Conor',
  'Ingrid',
] as const;

export const SURNAMES = [
  'Anderson',
  'Bakker',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'García',
  'Hughes',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Lindqvist',
  'Müller',
  'Nakamura',
  "O'Brien",
  'Patel',
  'Rossi',
  'Schmidt',
  'Taylor',
  'Umarov',
  'Van Dijk',
  'Walsh',
  'Xu',
  'Yilmaz',
  'Zimmermann',
  'Naidoo',
  'Mensah',
  'Okafor',
  'Haddad',
  'Novak',
  'Moreau',
  'Sørensen',
  'Byrne',
  'Ferreira',
] as const;

export interface TemplateSeed {
  owner: ParentKey;
  name: string;
  storageQuota: number;
  storageQuotaUnit: StorageQuotaUnit;
  noOfMachinesLimit: number;
  /** A provider's template offered to resellers only. */
  resellersOnly?: boolean;
}

export const TEMPLATES: readonly TemplateSeed[] = [
  { owner: 'provider', name: 'Trial 750 MB', storageQuota: 750, storageQuotaUnit: 'MB', noOfMachinesLimit: 1 },
  { owner: 'provider', name: 'Starter 50 GB', storageQuota: 50, storageQuotaUnit: 'GB', noOfMachinesLimit: 2 },
  { owner: 'provider', name: 'Business 500 GB', storageQuota: 500, storageQuotaUnit: 'GB', noOfMachinesLimit: 10 },
  { owner: 'provider', name: 'Professional 2 TB', storageQuota: 2, storageQuotaUnit: 'TB', noOfMachinesLimit: 25 },
  { owner: 'provider', name: 'Enterprise 10 TB', storageQuota: 10, storageQuotaUnit: 'TB', noOfMachinesLimit: 0 },
  {
    owner: 'provider',
    name: 'Reseller 20 TB',
    storageQuota: 20,
    storageQuotaUnit: 'TB',
    noOfMachinesLimit: 0,
    resellersOnly: true,
  },
  {
    owner: 'northwind',
    name: 'Northwind Mini 500 MB',
    storageQuota: 500,
    storageQuotaUnit: 'MB',
    noOfMachinesLimit: 1,
  },
  {
    owner: 'northwind',
    name: 'Northwind Basic 100 GB',
    storageQuota: 100,
    storageQuotaUnit: 'GB',
    noOfMachinesLimit: 3,
  },
  { owner: 'northwind', name: 'Northwind Pro 1 TB', storageQuota: 1, storageQuotaUnit: 'TB', noOfMachinesLimit: 15 },
  { owner: 'fabrikam', name: 'SafeVault Home 250 GB', storageQuota: 250, storageQuotaUnit: 'GB', noOfMachinesLimit: 2 },
  { owner: 'fabrikam', name: 'SafeVault Office 1 TB', storageQuota: 1, storageQuotaUnit: 'TB', noOfMachinesLimit: 10 },
  { owner: 'fabrikam', name: 'SafeVault Plus 5 TB', storageQuota: 5, storageQuotaUnit: 'TB', noOfMachinesLimit: 0 },
];

export const MB = 1_048_576;
export const UNIT_MBS: Record<StorageQuotaUnit, number> = { MB: 1, GB: 1024, TB: 1024 ** 2, PB: 1024 ** 3 };

export const OPERATING_SYSTEMS: readonly { family: OsFamily; name: string; server: boolean; weight: number }[] = [
  { family: 'WINDOWS', name: 'Windows 11 Pro', server: false, weight: 38 },
  { family: 'WINDOWS', name: 'Windows Server 2022', server: true, weight: 17 },
  { family: 'LINUX', name: 'Ubuntu 24.04 LTS', server: true, weight: 15 },
  { family: 'LINUX', name: 'Debian 12', server: true, weight: 10 },
  { family: 'MAC', name: 'macOS 15 Sequoia', server: false, weight: 20 },
];

export const CLIENT_VERSIONS = ['2.4.1', '2.5.0', '2.5.2', '2.6.0'] as const;

export const TIME_ZONES = [
  'Europe/London',
  'Europe/Berlin',
  'Europe/Lisbon',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'Africa/Johannesburg',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Australia/Sydney',
] as const;

export const EXCLUSIONS: Record<OsFamily, readonly string[]> = {
  WINDOWS: ['*.tmp', '~$*', 'Thumbs.db', '**/Temp/**', '*.iso'],
  MAC: ['.DS_Store', '**/Library/Caches/**', '*.tmp', '*.dmg'],
  LINUX: ['*.log', '**/cache/**', '*.swp', '**/node_modules/**'],
};

export const FAILURE_MESSAGES = [
  'Fatal: unable to open repository: connection refused',
  'unable to save snapshot: context deadline exceeded',
  'Fatal: repository is already locked by PID 4120 on BACKUP-HOST',
  'upload failed: 403 Forbidden (access key not valid for this bucket)',
  'read error: the network path was not found',
] as const;

/** restic exit codes by name for failed runs (0 SUCCESS and 3 SOME_FILES_NOT_ACCESSIBLE are set by outcome). */
export const FAILURE_EXIT_CODES = [
  'FATAL_ERROR',
  'FATAL_ERROR',
  'REPOSITORY_LOCKED',
  'FATAL_ERROR',
  'FATAL_ERROR',
] as const;

/** How a task's raw fields and run history are laid out; each maps to one display status (000 §4). */
export type Recipe =
  | 'success'
  | 'warnings'
  | 'failed'
  | 'missed'
  | 'never'
  | 'inProgressAfterSuccess'
  | 'inProgressAfterFailure'
  | 'initiatedFirst'
  | 'paused'
  | 'awaitingSeed'
  | 'beingDeleted'
  | 'deletionFailed';

/** The domain's slug, which the portal also names customers' buckets with. */
export { slug } from '@portal/domain';
