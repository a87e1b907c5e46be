import { z } from 'zod';
import type { ActivityRow, Profile } from './account.js';
import {
  forgotPasswordSchema,
  passwordChangeSchema,
  profileSchema,
  resetPasswordSchema,
  signInFormSchema,
} from './account.js';
import { AGENT_DOWNLOADS, agentInstallerQuerySchema } from './agent-install.js';
import {
  AGENT_CHANNEL,
  type LinkingCodeResult,
  type MachineLinkResult,
  machineLinkRequestSchema,
} from './agent-protocol.js';
import { type ApiTokenCreated, type ApiTokenRow, apiTokenCreateSchema, SESSION_ONLY_ROUTES } from './api-tokens.js';
import type { AttentionList } from './attention.js';
import { type AuditRow, auditFilterSchema, auditQuerySchema } from './audit.js';
import { type CursorPaged, cursorPagingQuerySchema } from './cursor.js';
import type { CustomerAccount, CustomerDetail, CustomerPackageRow, CustomerRow } from './customers.js';
import { customerSearchQuerySchema, customerStatusChangeQuerySchema } from './customers.js';
import type {
  DashboardCustomerCounts,
  DashboardCustomerRow,
  DashboardMachineCounts,
  DashboardMachineRow,
  DashboardTaskCounts,
  DashboardTaskRow,
  GettingStartedFlags,
} from './dashboard.js';
import { ALL_CUSTOMERS_ID, customerListQuerySchema, machineListQuerySchema, taskListQuerySchema } from './dashboard.js';
import type { TaskDataCheck } from './data-checks.js';
import { type Paged, pagingQuerySchema } from './envelope.js';
import {
  type FileSearchStarted,
  fileHistoryRequestSchema,
  fileSearchRequestSchema,
  fileSearchStopSchema,
} from './file-search.js';
import {
  type BillingConnectionResult,
  type BillingInfo,
  type BillingServerRow,
  billingInfoQuerySchema,
  billingServerAddSchema,
  billingServerEditSchema,
  billingServerTestSchema,
} from './forms/billing-server.js';
import {
  customerAccountEditSchema,
  customerPluginSettingsSchema,
  providerCustomerChangeQuerySchema,
  volumeSnapshotsBodySchema,
} from './forms/customer.js';
import { logUploadSchema, machineEditSchema, messageLogRequestSchema } from './forms/machine.js';
import { packageEditSchema, packagePurchaseSchema, packageUpgradeSchema } from './forms/package.js';
import { packageTemplateAddSchema, packageTemplateEditSchema } from './forms/package-template.js';
import { resticCommandSchema } from './forms/restic.js';
import { restoreRequestSchema } from './forms/restore.js';
import { signUpSchema } from './forms/signup.js';
import {
  bucketPolicyPrincipalDeleteSchema,
  migrationCreateSchema,
  setDefaultStorageAccountQuerySchema,
  storageAccountAddSchema,
  storageAccountEditSchema,
  storageAccountMigrationSchema,
  storageAccountTestSchema,
  storageLocationCreateSchema,
  storageUserDeleteSchema,
} from './forms/storage.js';
import { downloadRequestSchema, type TaskDefinition } from './forms/task.js';
import { userAddSchema, userEditSchema, userLinkSchema } from './forms/user.js';
import { pinSnapshotSchema, type RetentionPreview, retentionPreviewQuerySchema } from './guardrails.js';
import { idParam } from './ids.js';
import { type LogFileEntry, logFileUploadQuerySchema } from './log-files.js';
import {
  type MachineDetail,
  type MachineMessageRow,
  type MachineRow,
  type MachineStorage,
  machineActionQuerySchema,
} from './machines.js';
import type { MailFailureRow } from './mail.js';
import {
  accountMfaPolicySchema,
  type MfaEnrolment,
  type MfaRecoveryCodes,
  type MfaSignInResult,
  type MfaStatus,
  mfaCodeSchema,
  mfaPasswordAndCodeSchema,
} from './mfa.js';
import {
  type MigrationLocation,
  type PackageMigrationDetail,
  type PackageMigrationRow,
  syncCommandSchema,
} from './migrations.js';
import {
  type NotificationMachineOption,
  type NotificationThresholds,
  type NotificationUserRow,
  notificationSearchQuerySchema,
  notificationThresholdsSchema,
  notificationUserSettingsSchema,
} from './notifications.js';
import {
  type MyPackageRequestRow,
  type PackageRequestRow,
  type PackageTemplateRow,
  packageTablePagingSchema,
} from './package-requests.js';
import {
  type PackageDetail,
  type PackageRow,
  type PackageStorageDetails,
  packageActionQuerySchema,
  packageEditQuerySchema,
  packageInitializeSchema,
} from './packages.js';
import { ID_MAX, idSegment, textSegment } from './paths.js';
import type { AccessLevel } from './permissions.js';
import type { PurchaseResult, TemplatesOnOffer } from './purchase.js';
import type { RealtimeCommandView } from './realtime-commands.js';
import { remoteManagementSchema } from './remote-management.js';
import type { ResellerSettingsView } from './reseller-settings.js';
import {
  archiveDeleteQuerySchema,
  type DownloadInitiated,
  type SnapshotTreeItem,
  snapshotTreeQuerySchema,
} from './restore.js';
import {
  type RestoreTestRow,
  type RestoreTestSettingsView,
  type RestoreTestSummary,
  restoreTestSettingsSchema,
} from './restore-tests.js';
import { type SeedLoadResult, seedLoadRequestSchema } from './seeding.js';
import type { SignUpOptions, SignUpResult } from './signup.js';
import type {
  BucketWithPolicyInfo,
  StorageAccessKeyRow,
  StorageAccountDetail,
  StorageAccountRow,
  StorageAccountUserRow,
} from './storage-accounts.js';
import type { StorageAccountChoice, StorageLocationDetail, StorageLocationRow } from './storage-locations.js';
import type { TaskOverviewRow, TaskVolumeSnapshotsResult } from './task-overview.js';
import {
  actionCancelQuerySchema,
  type StorageDetails,
  type TaskActionRow,
  type TaskDetail,
  type TaskRow,
  type TaskSnapshotRow,
  taskActionsQuerySchema,
} from './tasks.js';
import { type TreeItem, treeItemsRequestSchema } from './tree.js';
import { RESELLER_SETTINGS_SECTIONS } from './urls.js';
import type { UserImportResult } from './user-import.js';
import type { LinkablePackage, RoleOption, UserMachineRow, UserPackageRow, UserRow } from './users.js';
import { type VerificationCountsView, type VerificationTaskRow, verificationTaskQuerySchema } from './verification.js';
import {
  type VerificationReportSettings,
  verificationPeriodQuerySchema,
  verificationReportSettingsSchema,
} from './verification-report.js';

/**
 * The wire contract: every HTTP route of the server, one entry each, grouped by feature. An entry names
 * its method, its path pattern (Fastify's `:name` segments), who may call it, the schemas its input is
 * parsed with and the type of its answer's `result`. The server registers its routes from these entries,
 * the route matrix test checks them, and every caller (web, agent, tests) builds a path with the entry's
 * `build` (withQuery for a query string), so a path, an access level or an answer type is written once.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

declare const answerType: unique symbol;
/** The type of an answer's `result`, carried by the entry's type only (there is nothing at runtime). */
export interface Answer<T> {
  readonly [answerType]?: T;
}
const ANSWER: Answer<never> = Object.freeze({});
/** The marker of a route that answers no envelope, told apart at runtime (the OpenAPI document needs to). */
const NOT_AN_ENVELOPE: Answer<never> = Object.freeze({});
/** Names the answer type of an entry: `response: answer<UserRow>()`. */
const answer = <T>(): Answer<T> => ANSWER;
/** What a route that does not answer with an envelope (a redirect, a file, a WebSocket, restic's REST) names. */
const notAnEnvelope = (): Answer<never> => NOT_AN_ENVELOPE;
/** Whether the entry answers with the JSON envelope (every route but redirects, files, WebSockets, restic's REST). */
export const answersEnvelope = (entry: { response: Answer<unknown> }) => entry.response !== NOT_AN_ENVELOPE;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The parameters of a path pattern: `…Id` segments are ids (numbers), any other segment is text. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: K extends `${string}Id` ? number : string };

/** The builder's arguments: none for a path without parameters. */
type BuildArgs<P extends string> = [ParamNames<P>] extends [never] ? [] : [params: PathParams<P>];

/** How a route's caller proves itself when it is a machine (RouteDefinition.machineAuth). */
export type MachineAuth = 'credential' | 'link';
/** A token of the operator's own, set in the server's environment (RouteDefinition.operatorToken). */
export type OperatorToken = 'metrics';

/** One body a route takes, where the server picks or builds its schema per call (RouteDefinition.bodyShapes). */
export interface BodyShape {
  readonly schema: z.ZodType;
  readonly when?: string;
}

interface RouteDefinition {
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: AccessLevel;
  readonly response: Answer<unknown>;
  /** The path parameters' schema; by default every `…Id` segment is an id (idParam), any other text. */
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /**
   * Where the server builds the body's schema per call (from a query flag, or from what is stored: the caller's
   * sign-in e-mail, the package's quota, the templates on offer), the shapes it accepts, for the OpenAPI
   * document and its fuzzing only; the limits that depend on stored data are not in them. `when` says which
   * call takes a shape, where there are several.
   */
  readonly bodyShapes?: readonly BodyShape[];
  /** How a parameter becomes a segment, where an id is not the usual positive whole number. */
  readonly segments?: Readonly<Record<string, (value: number) => string>>;
  /**
   * The caller proves itself, never by cookie or API token: 'credential', the machine's own credential as basic
   * auth (the agent, restic); 'link', `agent link`'s e-mail and password or linking code in the body. No session
   * is looked up and CSRF does not apply, since a browser's cookies give such a request nothing.
   */
  readonly machineAuth?: MachineAuth;
  /**
   * The caller is the operator's tooling (a Prometheus scraper) and proves itself with a bearer token set in the
   * server's environment ('metrics': METRICS_TOKEN), never by cookie or API token: no session is looked up.
   */
  readonly operatorToken?: OperatorToken;
}

type DefaultParams<P extends string> = z.ZodType<PathParams<P>>;

/** Any entry of the table, for code that handles every route alike (registration, the matrix test). */
export interface RouteEntry {
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: AccessLevel;
  readonly response: Answer<unknown>;
  readonly params: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly bodyShapes?: readonly BodyShape[];
  readonly machineAuth?: MachineAuth;
  readonly operatorToken?: OperatorToken;
  readonly build: (...args: never[]) => string;
}

export type ApiRoute<D extends RouteDefinition> = Omit<D, 'params'> & {
  readonly params: D['params'] extends z.ZodType ? D['params'] : DefaultParams<D['path']>;
  /** The path of one call: every id checked with idSegment, every other segment encoded. */
  readonly build: (...args: BuildArgs<D['path']>) => string;
};

/** The answer type an entry names. */
export type ResponseOf<R extends { response: Answer<unknown> }> = R['response'] extends Answer<infer T> ? T : never;

const PARAM = /:([A-Za-z]+)/g;

function route<const D extends RouteDefinition>(definition: D): ApiRoute<D> {
  // The default schema is made on first use: only the server and the OpenAPI document read it, and a zod object per
  // route made when the table loads was part of the web app's longest task on a page load (bench/RESULTS.md,
  // 'Lighthouse: main-thread cost … 7 December 2026').
  let params = definition.params;
  const paramsSchema = () => {
    const names = [...definition.path.matchAll(PARAM)].map((match) => match[1] as string);
    params ??= z.object(Object.fromEntries(names.map((name) => [name, name.endsWith('Id') ? idParam : z.string()])));
    return params;
  };
  const build = (values: Record<string, number | string> = {}) =>
    definition.path.replace(PARAM, (_, name: string) => {
      const value = values[name];
      const segment = definition.segments?.[name];
      if (typeof value === 'number') return segment ? segment(value) : idSegment(value, name);
      if (typeof value === 'string') return textSegment(value, name);
      throw new RangeError(`${name} is missing`);
    });
  // The cast ties the runtime schema and builder to the types computed from the path pattern above.
  return {
    ...definition,
    get params() {
      return paramsSchema();
    },
    build,
  } as unknown as ApiRoute<D>;
}

type RouteOptions = Omit<RouteDefinition, 'method' | 'path' | 'access'>;

/** `get(path, access, { query, response })` and its siblings: one line per route in the table below. */
const routeOf =
  <const M extends HttpMethod>(method: M) =>
  <const P extends string, const O extends RouteOptions>(path: P, access: AccessLevel, options: O) =>
    route({ method, path, access, ...options });
/** The options of a paged list: `?page=&size=` in, `{ elements, totalElements, totalPages }` out. */
const pagedList = <T>() => ({ query: pagingQuerySchema, response: answer<Paged<T>>() }) as const;
/**
 * A list that can be deep (issue 33 item 6): `?cursor=` (the nextCursor of the page before) or a page number bounded
 * to LIST_COUNT_LIMIT rows in, the paged answer with its `nextCursor` out (cursor.ts).
 */
const cursorList = <T>() => ({ query: cursorPagingQuerySchema(), response: answer<CursorPaged<T>>() }) as const;

const get = routeOf('GET');
const post = routeOf('POST');
const put = routeOf('PUT');
const del = routeOf('DELETE');

// --- Answers of calls without a domain module of their own --------------------------------------------

/** The health of each part: 'down' answers 503; Redis down only degrades (each instance serves its own connections). */
export const HEALTH_STATUSES = ['ok', 'degraded', 'down'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** GET /health: 200 when the database answers (status ok, or degraded while Redis is down), else 503. */
export interface HealthResult {
  status: HealthStatus;
  database: 'up' | 'down';
  databaseKind: 'postgres' | 'pglite';
  redis: 'up' | 'down' | 'not configured';
  version: string;
  commitId: string;
}

/**
 * GET /ready (issue 34): whether this instance should get traffic: 200 when the database and Redis (where set)
 * answer and this build's migrations are applied; 503 otherwise, with the same fields. An instance shutting down
 * answers 503 to every request, this one included, from the moment it starts closing.
 */
export interface ReadyResult {
  ready: boolean;
  database: 'up' | 'down';
  redis: 'up' | 'down' | 'not configured';
  migrations: 'done' | 'pending' | 'unknown';
}

/** A confirmation text (forgot and reset password, password change). */
export interface MessageResult {
  message: string;
}

/** POST /logout asked for JSON: where the browser goes next. */
export interface SignOutResult {
  redirect: string;
}

/** A mail the demo's SMTP sink caught (GET /demo/mails). */
export interface DemoMail {
  id: number;
  receivedAt: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** POST /backupmachines/{id}/treeitems (002 §7.8). */
export interface TreeItemsResult {
  treeItemsRequestId: string;
  treeItems: TreeItem[];
  responseSummaryCode: 'OK';
}

/** The log file upload the machine was asked for. */
export interface LogUploadRequested {
  requestId: string;
}

/** A list answered as `{ elements }` without paging. */
export interface Elements<T> {
  elements: T[];
}

// --- Path parameters other than a positive id ------------------------------------------------------------

/** A dashboard customer id: a positive id, or -1 for every customer (Select All, provider only). */
const dashboardCustomerParams = z.object({
  customerId: z.coerce
    .number()
    .int()
    .refine(
      (id) => id === ALL_CUSTOMERS_ID || (id > 0 && id <= ID_MAX),
      'Customer id must be a positive whole number or -1',
    ),
});
const customerOrAll = (customerId: number) =>
  customerId === ALL_CUSTOMERS_ID ? String(ALL_CUSTOMERS_ID) : idSegment(customerId, 'customerId');

/** `commandId` of a realtime command's stop and delete: the browser's request id. */
const commandIdBody = z.object({
  commandId: z
    .union([z.string(), z.number()], { error: 'Command id is required' })
    .transform(String)
    .pipe(z.string().trim().min(1, 'Command id is required').max(100, 'Command id is not valid')),
});

/** ?link=true on a user's PUT (link to a package), ?unlink=true on the package's. */
const flag = z.enum(['true', 'false']).optional();

/** A paged customer list with its search (company, super admin name or e-mail). */
const customerList = <const P extends string>(path: P, access: AccessLevel) =>
  get(path, access, { query: customerSearchQuerySchema, response: answer<Paged<CustomerRow>>() });

// --- The customer administration, the same calls under both bases (002 §7.3) ----------------------------

function customerAdminRoutes<const B extends string, Q extends z.ZodType>(
  base: B,
  access: AccessLevel,
  changeQuery: Q,
) {
  return {
    detail: get(`${base}/:customerId` as const, access, { response: answer<CustomerDetail>() }),
    /** ?status={newStatus}; the provider's also ?whmcsServerId=&paymentMethod= (002 §7.3). */
    changeStatus: put(`${base}/:customerId` as const, access, {
      query: changeQuery,
      response: answer<CustomerDetail>(),
    }),
    remove: del(`${base}/:customerId` as const, access, { response: answer<null>() }),
    packages: get(`${base}/:customerId/backuppackages` as const, access, {
      query: packageTablePagingSchema,
      response: answer<Paged<CustomerPackageRow>>(),
    }),
    users: get(`${base}/:customerId/users` as const, access, pagedList<UserRow>()),
    user: get(`${base}/:customerId/users/:userId` as const, access, { response: answer<UserRow>() }),
    userPackages: get(`${base}/:customerId/users/:userId/backuppackages` as const, access, pagedList<UserPackageRow>()),
    userMachines: get(`${base}/:customerId/users/:userId/backupmachines` as const, access, pagedList<UserMachineRow>()),
  };
}

// --- Backup tasks: lists, the task page, runs, snapshots, storage and cancel (002 §7.5, §7.7) ----------

/**
 * The task calls under one machine path of an audience: the customer's /backupmachines/{m}, the reseller's
 * /admin/mycustomers/{c}/backuppackages/{p}/backupmachines/{m} and the provider's /boltadmin one. The spec
 * names some under one audience only; the others are ours in the same style, so each page calls its own base.
 */
function taskRoutes<const B extends string>(machine: B, access: AccessLevel) {
  const task = `${machine}/backuptasks/:taskId` as const;
  return {
    list: get(`${machine}/backuptasks` as const, access, pagedList<TaskRow>()),
    /** A JSON GET of the task page's path (a browser navigation gets the page). */
    detail: get(task, access, { response: answer<TaskDetail>() }),
    actions: get(`${task}/actions` as const, access, {
      query: taskActionsQuerySchema,
      response: answer<Paged<TaskActionRow>>(),
    }),
    snapshots: get(`${task}/backupsnapshots` as const, access, pagedList<TaskSnapshotRow>()),
    storage: get(`${task}/storage` as const, access, { response: answer<StorageDetails>() }),
    snapshotStorage: get(`${task}/backupsnapshots/:snapshotId/storage` as const, access, {
      response: answer<StorageDetails>(),
    }),
    cancel: put(`${task}/backupactions/:actionId/cancel` as const, access, {
      query: actionCancelQuerySchema,
      response: answer<null>(),
    }),
    /** Ours (issue 32): the last data check of the task's repository, and for the provider after damage the repair. */
    dataCheck: get(`${task}/datacheck` as const, access, { response: answer<TaskDataCheck>() }),
  };
}

// --- Package templates and package requests (000 §7), the same calls under the provider's and a reseller's base ---

function packageTemplateRoutes<const B extends string>(base: B, access: AccessLevel) {
  return {
    list: get(`${base}paginated` as const, access, {
      query: packageTablePagingSchema,
      response: answer<Paged<PackageTemplateRow>>(),
    }),
    add: post(base, access, { body: packageTemplateAddSchema, response: answer<PackageTemplateRow>() }),
    /** Only the name changes (000 §5). */
    edit: put(`${base}/:templateId` as const, access, {
      body: packageTemplateEditSchema,
      response: answer<PackageTemplateRow>(),
    }),
    remove: del(`${base}/:templateId` as const, access, { response: answer<null>() }),
  };
}

function packageRequestRoutes<const B extends string>(base: B, access: AccessLevel) {
  return {
    /** Pending requests only, oldest first. */
    list: get(`${base}paginated` as const, access, {
      query: packageTablePagingSchema,
      response: answer<Paged<PackageRequestRow>>(),
    }),
    /** The request's approveUrl; body requestApprovalSchema(its type): storageItemId for new and additional. */
    approve: put(`${base}/:requestId/approve` as const, access, { response: answer<null>() }),
    /** The request's declineUrl; empty body. */
    decline: put(`${base}/:requestId/decline` as const, access, { response: answer<null>() }),
  };
}

const PROVIDER_MACHINE = '/boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId';
const REALTIME = `${PROVIDER_MACHINE}/realtimecommands` as const;
/** A package's migrations (001 §7). */
const MIGRATIONS = '/boltadmin/customers/:customerId/backuppackages/:packageId/migrations' as const;
const MIGRATION = `${MIGRATIONS}/:migrationId` as const;
/** A run of a task on the customer's paths (002 §7.5, §7.6). */
const TASK_RUN = '/backupmachines/:machineId/backuptasks/:taskId/backupruns/:runId';
const TASK_RESTORE_TESTS = '/backupmachines/:machineId/backuptasks/:taskId/restoretests';

export const ROUTES = {
  health: {
    check: get('/health', 'public', { response: answer<HealthResult>() }),
    /** Ours (issue 34): a load balancer's readiness check, beside the liveness of /health. */
    ready: get('/ready', 'public', { response: answer<ReadyResult>() }),
    /**
     * Ours (issue 34): Prometheus metrics in the text exposition format, for METRICS_TOKEN as a bearer token; with
     * no METRICS_TOKEN set there is no such endpoint (404).
     */
    metrics: get('/metrics', 'public', { response: notAnEnvelope(), operatorToken: 'metrics' }),
  },
  /** The built web app's files (registered only when it is built); pages are answered by the SPA's hook. */
  web: {
    assets: get('/assets/*', 'public', { response: notAnEnvelope() }),
    images: get('/img/*', 'public', { response: notAnEnvelope() }),
  },
  auth: {
    /** A browser form post: answered with redirects. */
    signIn: post('/login', 'public', { body: signInFormSchema, response: notAnEnvelope() }),
    /** Redirects a form post; answers SignOutResult to a call that accepts JSON. */
    signOut: post('/logout', 'public', { response: answer<SignOutResult>() }),
    forgotPassword: post('/forgot-password', 'public', {
      body: forgotPasswordSchema,
      response: answer<MessageResult>(),
    }),
    resetPassword: post('/reset-password', 'public', {
      body: resetPasswordSchema,
      response: answer<MessageResult>(),
    }),
  },
  /** Two-factor sign-in (issue 18): the second step of sign-in and the user's own settings. */
  mfa: {
    /** The half-signed-in session's code; a right one makes it a whole sign-in. */
    secondStep: post('/login/mfa', 'mfaPending', { body: mfaCodeSchema, response: answer<MfaSignInResult>() }),
    status: get('/profile/mfa', 'signedIn', { response: answer<MfaStatus>() }),
    /** A new key awaiting confirmation (any earlier unconfirmed one is replaced). */
    start: post('/profile/mfa/enrolment', 'signedIn', { response: answer<MfaEnrolment>() }),
    confirm: post('/profile/mfa/enrolment/confirm', 'signedIn', {
      body: mfaCodeSchema,
      response: answer<MfaRecoveryCodes>(),
    }),
    disable: post('/profile/mfa/disable', 'signedIn', {
      body: mfaPasswordAndCodeSchema,
      response: answer<MfaStatus>(),
    }),
    regenerateRecoveryCodes: post('/profile/mfa/recoverycodes', 'signedIn', {
      body: mfaPasswordAndCodeSchema,
      response: answer<MfaRecoveryCodes>(),
    }),
  },
  signUp: {
    options: get('/signup/options', 'public', { response: answer<SignUpOptions>() }),
    /** The body is signUpSchema(the templates on offer). */
    submit: post('/signup', 'public', { bodyShapes: [{ schema: signUpSchema([]) }], response: answer<SignUpResult>() }),
  },
  profile: {
    get: get('/profile', 'signedIn', { response: answer<Profile>() }),
    /** The body is profileSchema(the caller's current sign-in e-mail). */
    update: put('/profile', 'signedIn', {
      bodyShapes: [{ schema: profileSchema('') }],
      response: answer<Profile | null>(),
    }),
    changePassword: put('/profile/password', 'signedIn', {
      body: passwordChangeSchema,
      response: answer<MessageResult>(),
    }),
    activity: get('/profile/activity', 'signedIn', pagedList<ActivityRow>()),
  },
  /**
   * Ours (issue 18): the caller's personal API tokens. Managing them needs a session: a request with a token is
   * refused here, so a leaked token cannot mint itself successors.
   */
  apiTokens: {
    list: get('/profile/apitokens', 'signedIn', { response: answer<Elements<ApiTokenRow>>() }),
    create: post('/profile/apitokens', 'signedIn', {
      body: apiTokenCreateSchema,
      response: answer<ApiTokenCreated>(),
    }),
    revoke: del('/profile/apitokens/:tokenId', 'signedIn', { response: answer<null>() }),
  },
  /**
   * Ours (issue 18): the OpenAPI 3.1 document of this table. Public, like the web app's script that carries
   * the same table: it names routes and fields, never data.
   */
  openApi: {
    document: get('/api/openapi.json', 'public', { response: notAnEnvelope() }),
  },
  /** The customer-side users calls of 002 §7.1 and 001 §7, plus ours: roles, one user, linkable packages. */
  users: {
    list: get('/admin/users', 'customerAdmin', pagedList<UserRow>()),
    roles: get('/admin/account/users/roles', 'customerAdmin', { response: answer<Elements<RoleOption>>() }),
    detail: get('/admin/account/users/:userId', 'customerAdmin', { response: answer<UserRow>() }),
    add: post('/admin/account/users', 'customerAdmin', { body: userAddSchema, response: answer<UserRow>() }),
    /** Edit (body userEditSchema) and, with ?link=true, link to a package (body userLinkSchema): one path, two payloads. */
    edit: put('/admin/account/users/:userId', 'customerAdmin', {
      query: z.object({ link: flag }),
      bodyShapes: [
        { schema: userEditSchema, when: 'Without ?link=true: the edit.' },
        { schema: userLinkSchema, when: 'With ?link=true: the package to link the user to.' },
      ],
      response: answer<UserRow>(),
    }),
    linkablePackages: get('/admin/account/users/:userId/linkablebackuppackages', 'customerAdmin', {
      response: answer<Elements<LinkablePackage>>(),
    }),
    /** ?unlink=true. */
    unlink: put('/admin/account/users/:userId/backuppackages/:packageId', 'customerAdmin', {
      query: z.object({ unlink: flag }),
      response: answer<null>(),
    }),
    remove: del('/admin/account/users/:userId', 'customerAdmin', { response: answer<null>() }),
    packages: get('/admin/account/users/:userId/backuppackages', 'customerAdmin', pagedList<UserPackageRow>()),
    machines: get('/admin/account/users/:userId/backupmachines', 'customerAdmin', pagedList<UserMachineRow>()),
    /** Multipart: file and skipAlreadyExisting (userImportSchema); 409 carries the result with the problems. */
    import: post('/admin/account/users/import', 'customerAdmin', { response: answer<UserImportResult>() }),
    /** The example spreadsheet of the bulk import (002 §2.4). */
    importExample: get('/public/downloads/files/userimport/BulkUserImport.xlsx', 'public', {
      response: notAnEnvelope(),
    }),
  },
  customers: {
    /** The paged customer lists (002 §7.3; 10 per page), and ours: the reseller's own customers. */
    lists: {
      customers: customerList('/boltadmin/customerspaginated', 'providerAdmin'),
      customersToMakeResellers: customerList('/boltadmin/customerstomakeresellerspaginated', 'providerAdmin'),
      resellers: customerList('/boltadmin/resellerspaginated', 'providerAdmin'),
      myCustomers: customerList('/admin/mycustomerspaginated', 'resellerAdmin'),
    },
    provider: customerAdminRoutes('/boltadmin/customers', 'providerAdmin', providerCustomerChangeQuerySchema),
    reseller: customerAdminRoutes('/admin/mycustomers', 'resellerAdmin', customerStatusChangeQuerySchema),
    plugins: put('/boltadmin/customers/:customerId/plugins', 'providerAdmin', {
      body: customerPluginSettingsSchema,
      response: answer<CustomerDetail>(),
    }),
    makeReseller: put('/boltadmin/customers/:customerId/makereseller', 'providerAdmin', {
      response: answer<CustomerDetail>(),
    }),
  },
  /**
   * Reseller settings (000 §7, 002 §7.4): the PUTs of the three sections, multipart (fields and the logo and
   * favicon files), by the reseller's super admin for its own and by the provider admin for a customer's (the
   * account section only). The GETs are ours: the screen's current settings. The e-mail section is tested
   * against the reseller's mail server before it is saved.
   */
  resellerSettings: {
    own: get('/admin/reselleradmin', 'resellerSuperAdmin', { response: answer<ResellerSettingsView>() }),
    saveOwn: put('/admin/account/:section', 'resellerSuperAdmin', {
      params: z.object({ section: z.enum(RESELLER_SETTINGS_SECTIONS, { error: 'Unknown settings section' }) }),
      response: answer<ResellerSettingsView>(),
    }),
    provider: get('/boltadmin/customers/:customerId/resellersettings', 'providerAdmin', {
      response: answer<ResellerSettingsView>(),
    }),
    saveProvider: put('/boltadmin/customers/:customerId/:section', 'providerAdmin', {
      params: z.object({
        customerId: idParam,
        section: z.enum(RESELLER_SETTINGS_SECTIONS, { error: 'Unknown settings section' }),
      }),
      response: answer<ResellerSettingsView>(),
    }),
    /** A stored logo or favicon (000 §2, 001 §7): public, since the sign-in pages of a custom host show it. */
    image: get('/public/downloads/img/:filename', 'public', { response: notAnEnvelope() }),
  },
  /** The customer's account page (001 §2). */
  account: {
    get: get('/admin/account', 'customerAdmin', { response: answer<CustomerAccount>() }),
    edit: put('/admin/account', 'customerAdmin', {
      body: customerAccountEditSchema,
      response: answer<CustomerAccount>(),
    }),
    /** Ours (issue 18): the super admin requires two-factor sign-in of every user of the account, or stops. */
    mfaPolicy: put('/admin/account/mfa/policy', 'customerSuperAdmin', {
      body: accountMfaPolicySchema,
      response: answer<CustomerAccount>(),
    }),
  },
  /**
   * Mail delivery (issue 17, ours): the caller's customer's mails that failed or are being retried, newest first,
   * for its super admin (shown on the notification settings screen).
   */
  /**
   * The audit trail (issue 18): the provider's every tenant, a customer super admin's own tenant; the exports
   * take the same filters and answer every matching record as CSV.
   */
  audit: {
    provider: get('/boltadmin/auditevents', 'providerAdmin', {
      query: auditQuerySchema,
      response: answer<CursorPaged<AuditRow>>(),
    }),
    providerExport: get('/boltadmin/auditevents/export', 'providerAdmin', {
      query: auditFilterSchema,
      response: notAnEnvelope(),
    }),
    account: get('/admin/account/auditevents', 'customerSuperAdmin', {
      query: auditQuerySchema,
      response: answer<CursorPaged<AuditRow>>(),
    }),
    accountExport: get('/admin/account/auditevents/export', 'customerSuperAdmin', {
      query: auditFilterSchema,
      response: notAnEnvelope(),
    }),
  },
  mail: {
    failures: get('/admin/mailfailures', 'customerSuperAdmin', pagedList<MailFailureRow>()),
  },
  demo: {
    mails: get('/demo/mails', 'providerAdmin', pagedList<DemoMail>()),
  },
  /**
   * The dashboard (000 §2 leaves its calls to us, DESIGN §3): one path set for every audience, the server
   * scopes each answer to what the caller may see, so a path never widens what a caller reaches. Lists take
   * `page` (zero-based), `size` (default 12), `sort=<column>,<asc|desc>` and at most one status filter (the
   * pie slice clicked); any other parameter is refused. Counts are for the same scope without the status
   * filter, so the pies keep every slice while the table shows one.
   */
  dashboard: {
    customers: get('/dashboard/customers', 'customerManager', {
      query: customerListQuerySchema,
      response: answer<Paged<DashboardCustomerRow>>(),
    }),
    customerCounts: get('/dashboard/customers/counts', 'customerManager', {
      response: answer<DashboardCustomerCounts>(),
    }),
    /** Customer id -1: every machine (provider only). */
    customerMachines: get('/dashboard/customers/:customerId/machines', 'signedIn', {
      params: dashboardCustomerParams,
      segments: { customerId: customerOrAll },
      query: machineListQuerySchema,
      response: answer<Paged<DashboardMachineRow>>(),
    }),
    customerMachineCounts: get('/dashboard/customers/:customerId/machines/counts', 'signedIn', {
      params: dashboardCustomerParams,
      segments: { customerId: customerOrAll },
      response: answer<DashboardMachineCounts>(),
    }),
    ownMachines: get('/dashboard/machines', 'customerMember', {
      query: machineListQuerySchema,
      response: answer<Paged<DashboardMachineRow>>(),
    }),
    ownMachineCounts: get('/dashboard/machines/counts', 'customerMember', {
      response: answer<DashboardMachineCounts>(),
    }),
    machineTasks: get('/dashboard/backupmachines/:machineId/tasks', 'signedIn', {
      query: taskListQuerySchema,
      response: answer<Paged<DashboardTaskRow>>(),
    }),
    machineTaskCounts: get('/dashboard/backupmachines/:machineId/tasks/counts', 'signedIn', {
      response: answer<DashboardTaskCounts>(),
    }),
    gettingStarted: get('/dashboard/gettingstarted', 'customerMember', {
      response: answer<GettingStartedFlags>(),
    }),
    /** Ours (issue 31): what needs attention in the caller's scope, newest first, with counts. */
    attention: get('/dashboard/attention', 'signedIn', { response: answer<AttentionList>() }),
    /** Ours (issue 32 item 3): the caller's tasks per verification status (the dashboard's badge). */
    verificationCounts: get('/dashboard/verification/counts', 'signedIn', {
      response: answer<VerificationCountsView>(),
    }),
    /** Ours (issue 32 item 3): the caller's tasks of one verification status (the badge's filter), paged. */
    verificationTasks: get('/dashboard/verification/tasks', 'signedIn', {
      query: verificationTaskQuerySchema,
      response: answer<Paged<VerificationTaskRow>>(),
    }),
  },
  /** The HTTP alternative of the channel's tree request (002 §7.8). */
  treeItems: {
    list: post('/backupmachines/:machineId/treeitems', 'signedIn', {
      body: treeItemsRequestSchema,
      response: answer<TreeItemsResult>(),
    }),
  },
  /**
   * Finding files in the snapshots (issue 31; ours): the agent searches, its matches reach the caller's browsers on
   * the machine's queue (FileSearchUpdate). For whoever may read the machine's backed-up data (mayHandleBackupData).
   */
  fileSearch: {
    /** Without taskId: every task of the machine. */
    start: post('/backupmachines/:machineId/filesearches', 'signedIn', {
      body: fileSearchRequestSchema,
      response: answer<FileSearchStarted>(),
    }),
    /** Every snapshot of the task that holds the path. */
    history: post('/backupmachines/:machineId/backuptasks/:taskId/filehistory', 'signedIn', {
      body: fileHistoryRequestSchema,
      response: answer<FileSearchStarted>(),
    }),
    stop: post('/backupmachines/:machineId/filesearches/stop', 'signedIn', {
      body: fileSearchStopSchema,
      response: answer<null>(),
    }),
  },
  /**
   * Restore tests (issue 32; ours): a task's last test with whether the caller may start one, its history, 'Test
   * restore now' (for whoever may run the task) and the customer's interval override (its super admin).
   */
  restoreTests: {
    summary: get(`${TASK_RESTORE_TESTS}/latest`, 'signedIn', { response: answer<RestoreTestSummary>() }),
    history: get(TASK_RESTORE_TESTS, 'signedIn', pagedList<RestoreTestRow>()),
    start: post(TASK_RESTORE_TESTS, 'signedIn', { response: answer<RestoreTestRow>() }),
    settings: get('/admin/restoretestsettings', 'customerSuperAdmin', {
      response: answer<RestoreTestSettingsView>(),
    }),
    saveSettings: put('/admin/restoretestsettings', 'customerSuperAdmin', {
      body: restoreTestSettingsSchema,
      response: answer<RestoreTestSettingsView>(),
    }),
  },
  /**
   * The verification report (issue 32 item 4; ours): a customer's for its super admins, any managed customer's for
   * the provider's and a reseller's admins, and the roll-up over the caller's managed customers (the provider's: all
   * of them); each as CSV (every task, streamed) and as a one-page PDF, over `?from=&to=` (days, default the last 30).
   * The monthly mail's opt-in is the customer's, set by its super admin.
   */
  verificationReport: {
    ownCsv: get('/admin/verificationreport/csv', 'customerSuperAdmin', {
      query: verificationPeriodQuerySchema,
      response: notAnEnvelope(),
    }),
    ownPdf: get('/admin/verificationreport/pdf', 'customerSuperAdmin', {
      query: verificationPeriodQuerySchema,
      response: notAnEnvelope(),
    }),
    customerCsv: get('/admin/customers/:customerId/verificationreport/csv', 'customerManager', {
      query: verificationPeriodQuerySchema,
      response: notAnEnvelope(),
    }),
    customerPdf: get('/admin/customers/:customerId/verificationreport/pdf', 'customerManager', {
      query: verificationPeriodQuerySchema,
      response: notAnEnvelope(),
    }),
    rollupCsv: get('/admin/verificationreport/rollup/csv', 'customerManager', {
      query: verificationPeriodQuerySchema,
      response: notAnEnvelope(),
    }),
    rollupPdf: get('/admin/verificationreport/rollup/pdf', 'customerManager', {
      query: verificationPeriodQuerySchema,
      response: notAnEnvelope(),
    }),
    settings: get('/admin/verificationreport/settings', 'customerSuperAdmin', {
      response: answer<VerificationReportSettings>(),
    }),
    saveSettings: put('/admin/verificationreport/settings', 'customerSuperAdmin', {
      body: verificationReportSettingsSchema,
      response: answer<VerificationReportSettings>(),
    }),
  },
  /**
   * The add/edit task dialog (002 §4.3; ours, the spec has no call for it): the stored definition Edit starts
   * from, for whoever may command the machine (as the task commands themselves).
   */
  taskForm: {
    definition: get('/backupmachines/:machineId/backuptasks/:taskId/definition', 'signedIn', {
      response: answer<TaskDefinition>(),
    }),
  },
  /** Linking machines (DESIGN §6, issue #5). */
  machineLink: {
    /** `agent link`: public, the agent proves itself in the body (e-mail and password, or a linking code). */
    agentLink: post('/agent/link', 'public', {
      body: machineLinkRequestSchema,
      response: answer<MachineLinkResult>(),
      machineAuth: 'link',
    }),
    /** `agent unlink`: the agent gives up its own credential, with that credential as basic auth. */
    agentUnlink: del('/agent/machines/:machineId/credential', 'public', {
      response: answer<null>(),
      machineAuth: 'credential',
    }),
    linkingCodes: post('/backupmachines/linkingcodes', 'customerMember', { response: answer<LinkingCodeResult>() }),
  },
  /**
   * Backup machines (001 §2, §7; issue #14). The list and detail are ours (001 §2 'not shown'): the page
   * paths answer JSON callers, the SPA answers browsers. The server scopes each answer to what the caller
   * may see; another tenant's machine is not found.
   */
  machines: {
    /** The caller's machines: a customer user's assigned ones, a customer admin's customer's. */
    own: get('/backupmachines', 'customerMember', pagedList<MachineRow>()),
    detail: get('/backupmachines/:machineId', 'signedIn', { response: answer<MachineDetail>() }),
    edit: put('/backupmachines/:machineId', 'signedIn', { body: machineEditSchema, response: answer<MachineDetail>() }),
    storage: get('/backupmachines/:machineId/storage', 'signedIn', { response: answer<MachineStorage>() }),
    /**
     * The remote-management button (002 §4.2, §6; ours: the spec shows no call): the customer's own users switch
     * it (remote-management.ts); the answer is the machine's page again.
     */
    remoteManagement: put('/backupmachines/:machineId/remotemanagement', 'customerMember', {
      body: remoteManagementSchema,
      response: answer<MachineDetail>(),
    }),
    /** PUT with the filter as body and ?size=&page= (001 §7). */
    messages: put('/backupmachines/:machineId/messages', 'signedIn', {
      query: pagingQuerySchema,
      body: messageLogRequestSchema,
      response: answer<Paged<MachineMessageRow>>(),
    }),
    /** Exactly one of ?delete=true, ?status={newStatus}, ?refresh=true (001 §7), empty body. */
    action: put('/admin/backuppackages/:packageId/backupmachines/:machineId', 'anyAdmin', {
      query: machineActionQuerySchema,
      response: answer<null>(),
    }),
  },
  /**
   * Getting the agent (issue 14): public, since they are fetched by curl or PowerShell on a machine that
   * has no session; nothing in them is secret but the linking code the caller puts in the query.
   */
  agentDownloads: {
    bundle: get(`/public/downloads/agent/${AGENT_DOWNLOADS.bundle}`, 'public', { response: notAnEnvelope() }),
    linuxExecutable: get(`/public/downloads/agent/${AGENT_DOWNLOADS.linuxExecutable}`, 'public', {
      response: notAnEnvelope(),
    }),
    unixInstaller: get(`/public/downloads/agent/${AGENT_DOWNLOADS.unixInstaller}`, 'public', {
      query: agentInstallerQuerySchema,
      response: notAnEnvelope(),
    }),
    windowsInstaller: get(`/public/downloads/agent/${AGENT_DOWNLOADS.windowsInstaller}`, 'public', {
      query: agentInstallerQuerySchema,
      response: notAnEnvelope(),
    }),
  },
  /** Machine commands (001 §7, issue #5). */
  machineCommands: {
    uploadLogFiles: post(`${PROVIDER_MACHINE}/commands/uploadlogfiles`, 'providerAdmin', {
      query: logUploadSchema,
      response: answer<LogUploadRequested>(),
    }),
    /** Without ?filename= the list (ours: 001 §3 'Log file'); with it the file as a download. */
    logFiles: get(`${PROVIDER_MACHINE}/logfiles`, 'providerAdmin', { response: answer<LogFileEntry[]>() }),
    /** The agent's upload of one log file (machine credential, text/plain). */
    agentLogUpload: put('/agent/machines/:machineId/logfiles', 'public', {
      query: logFileUploadQuerySchema,
      response: answer<null>(),
      machineAuth: 'credential',
    }),
  },
  /** Realtime restic commands (001 §7): provider admins only. */
  realtimeCommands: {
    submit: put(REALTIME, 'providerAdmin', { body: resticCommandSchema, response: answer<RealtimeCommandView>() }),
    list: get(REALTIME, 'providerAdmin', { response: answer<Elements<RealtimeCommandView>>() }),
    stop: put(`${REALTIME}/stop`, 'providerAdmin', { body: commandIdBody, response: answer<null>() }),
    remove: put(`${REALTIME}/delete`, 'providerAdmin', { body: commandIdBody, response: answer<null>() }),
  },
  /** Seed loading (issue #5; ours, the spec has no call for it). */
  seeding: {
    load: post(`${PROVIDER_MACHINE}/backuptasks/:taskId/seed`, 'providerAdmin', {
      body: seedLoadRequestSchema,
      response: answer<SeedLoadResult>(),
    }),
  },
  /**
   * The provider's task dashboards (002 §2.2, §2.6; ours, the spec does not show their calls): paged lists of
   * the tasks running now, due in the next period and being deleted, and the task status counts of the whole
   * provider. The volume snapshots setting of a task from customer administration (002 §7.3).
   */
  taskOverview: {
    running: get('/boltadmin/backuptasks/running', 'providerAdmin', cursorList<TaskOverviewRow>()),
    nextPeriod: get('/boltadmin/backuptasks/nextperiod', 'providerAdmin', cursorList<TaskOverviewRow>()),
    beingDeleted: get('/boltadmin/backuptasks/beingdeleted', 'providerAdmin', cursorList<TaskOverviewRow>()),
    counts: get('/boltadmin/backuptasks/counts', 'providerAdmin', { response: answer<DashboardTaskCounts>() }),
    volumeSnapshots: put(`${PROVIDER_MACHINE}/backuptasks/:taskId`, 'providerAdmin', {
      body: volumeSnapshotsBodySchema,
      response: answer<TaskVolumeSnapshotsResult>(),
    }),
  },
  /** Backup tasks (002 §7.5, §7.7): each audience's machine path; /backupruns is the customer's run list. */
  tasks: {
    customer: {
      ...taskRoutes('/backupmachines/:machineId', 'customerMember'),
      runs: get(
        '/backupmachines/:machineId/backuptasks/:taskId/backupruns',
        'customerMember',
        pagedList<TaskActionRow>(),
      ),
    },
    reseller: taskRoutes(
      '/admin/mycustomers/:customerId/backuppackages/:packageId/backupmachines/:machineId',
      'resellerAdmin',
    ),
    provider: {
      ...taskRoutes(PROVIDER_MACHINE, 'providerAdmin'),
      /** Ours (issue 32): a check of all the task's repository's data, now (the data checks' job takes it at once). */
      checkData: post(`${PROVIDER_MACHINE}/backuptasks/:taskId/datacheck`, 'providerAdmin', {
        response: answer<TaskDataCheck>(),
      }),
    },
  },
  /** The live channel's WebSocket endpoints (DESIGN §5); a plain GET without an upgrade answers 404. */
  live: {
    customer: get('/ws/connect', 'customerMember', { response: notAnEnvelope() }),
    provider: get('/ws/boltadmin/connect', 'providerAdmin', { response: notAnEnvelope() }),
    agent: get(AGENT_CHANNEL.endpoint, 'public', { response: notAnEnvelope() }),
  },
  /** The embedded storage's restic REST backend (DESIGN §7): each request with its machine's credential. */
  restic: {
    create: post('/restic/:machineId/', 'public', { response: notAnEnvelope(), machineAuth: 'credential' }),
    readConfig: get('/restic/:machineId/config', 'public', { response: notAnEnvelope(), machineAuth: 'credential' }),
    saveConfig: post('/restic/:machineId/config', 'public', { response: notAnEnvelope(), machineAuth: 'credential' }),
    deleteConfig: del('/restic/:machineId/config', 'public', { response: notAnEnvelope(), machineAuth: 'credential' }),
    list: get('/restic/:machineId/:type/', 'public', { response: notAnEnvelope(), machineAuth: 'credential' }),
    readObject: get('/restic/:machineId/:type/:name', 'public', {
      response: notAnEnvelope(),
      machineAuth: 'credential',
    }),
    saveObject: post('/restic/:machineId/:type/:name', 'public', {
      response: notAnEnvelope(),
      machineAuth: 'credential',
    }),
    deleteObject: del('/restic/:machineId/:type/:name', 'public', {
      response: notAnEnvelope(),
      machineAuth: 'credential',
    }),
  },
  /**
   * A run's backed-up data (002 §7.5, §7.6; issue 14): its snapshot's tree, downloads, restores to the machine and
   * the archive deletion of a snapshot. Every caller who may see the machine reaches the paths; the server
   * applies mayHandleBackupData.
   */
  restore: {
    /** ?path= a folder of the snapshot ('/' the top): its direct children (ours, the tree of 002 §2.6's modal). */
    snapshotTree: get(`${TASK_RUN}/tree`, 'signedIn', {
      query: snapshotTreeQuerySchema,
      response: answer<Elements<SnapshotTreeItem>>(),
    }),
    initiateDownload: post(`${TASK_RUN}/downloads/initiate`, 'signedIn', {
      body: downloadRequestSchema,
      response: answer<DownloadInitiated>(),
    }),
    /**
     * Restore to the machine (issue 14): the agent restores the chosen items of the run's snapshot with `restic
     * restore`, reported as a BACKUP_RESTORE action of the task. Answered once the agent has taken it.
     */
    restoreToMachine: post(`${TASK_RUN}/restore`, 'signedIn', {
      body: restoreRequestSchema,
      response: answer<null>(),
    }),
    /** The hidden form POST (field `_csrf`) that answers with the zip; `download` is the initiate call's downloadId. */
    download: post(`${TASK_RUN}/downloads/:download`, 'signedIn', { response: notAnEnvelope() }),
    /** ?archivedelete=true, empty body: the archive is deleted in the background (BEING_DELETED → DELETED). */
    deleteArchive: put('/backupmachines/:machineId/backuptasks/:taskId/backupsnapshots/:snapshotId', 'signedIn', {
      query: archiveDeleteQuerySchema,
      response: answer<null>(),
    }),
  },
  /**
   * Guard rails (issue 32 items 7, 8): the task dialog's preview of what the next retention would forget, pinning a
   * run's snapshot (retention keeps it), and acknowledging an unusual run, which releases the task's retention. Every
   * caller who may see the machine reaches the paths; the server applies mayHandleBackupData and
   * mayAcknowledgeChange.
   */
  guardrails: {
    /** ?keep=N: the snapshots the next retention would forget were the task to keep N. */
    retentionPreview: get('/backupmachines/:machineId/backuptasks/:taskId/retentionpreview', 'signedIn', {
      query: retentionPreviewQuerySchema,
      response: answer<RetentionPreview>(),
    }),
    pinSnapshot: put(`${TASK_RUN}/pin`, 'signedIn', { body: pinSnapshotSchema, response: answer<null>() }),
    acknowledgeChange: put('/backupmachines/:machineId/backuptasks/:taskId/changealert/acknowledge', 'signedIn', {
      response: answer<null>(),
    }),
  },
  packageTemplates: {
    provider: packageTemplateRoutes('/boltadmin/backuppackagetemplates', 'providerAdmin'),
    reseller: packageTemplateRoutes('/admin/mypackagetemplates', 'resellerAdmin'),
  },
  packageRequests: {
    provider: packageRequestRoutes('/boltadmin/backuppackagerequests', 'providerAdmin'),
    reseller: packageRequestRoutes('/admin/backuppackagerequests', 'resellerAdmin'),
    /** Ours: the customer's own requests, pending first, with their status and dates. */
    mine: get('/admin/account/backuppackagerequestspaginated', 'customerAdmin', {
      query: packageTablePagingSchema,
      response: answer<Paged<MyPackageRequestRow>>(),
    }),
  },
  /**
   * Backup packages (000 §2, §4; issue 15): the customer admins' table and page, the package page of the
   * provider and of resellers (the page paths answer JSON callers, the SPA answers browsers), storage
   * details, edit and initialize, status change and deletion (?status= or ?delete=true).
   */
  packages: {
    list: get('/admin/backuppackages', 'customerAdmin', {
      query: packageTablePagingSchema,
      response: answer<Paged<PackageRow>>(),
    }),
    storage: get('/backuppackages/:packageId/storage', 'signedIn', { response: answer<PackageStorageDetails>() }),
    /** The package page's machines table (ours), for anyone who sees the package. */
    machines: get('/backuppackages/:packageId/backupmachines', 'signedIn', pagedList<MachineRow>()),
    customerDetail: get('/admin/backuppackages/:packageId', 'customerAdmin', { response: answer<PackageDetail>() }),
    /** Edit (body packageEditSchema of the package's quota); ?initialize=true names an APPROVED package. */
    edit: put('/admin/backuppackages/:packageId', 'customerAdmin', {
      query: packageEditQuerySchema,
      bodyShapes: [
        {
          schema: packageEditSchema(Number.MAX_SAFE_INTEGER),
          when: "Without ?initialize=true: the edit (the per-machine limit at most the package's quota).",
        },
        { schema: packageInitializeSchema, when: 'With ?initialize=true: the name of an APPROVED package.' },
      ],
      response: answer<PackageRow>(),
    }),
    resellerDetail: get('/admin/mycustomers/:customerId/backuppackages/:packageId', 'resellerAdmin', {
      response: answer<PackageDetail>(),
    }),
    resellerAction: put('/admin/mycustomers/:customerId/backuppackages/:packageId', 'resellerAdmin', {
      query: packageActionQuerySchema,
      response: answer<null>(),
    }),
    providerDetail: get('/boltadmin/customers/:customerId/backuppackages/:packageId', 'providerAdmin', {
      response: answer<PackageDetail>(),
    }),
    /** The provider's status change and deletion are on its own path (000 §7), without the customer. */
    providerAction: put('/boltadmin/backuppackages/:packageId', 'providerAdmin', {
      query: packageActionQuerySchema,
      response: answer<null>(),
    }),
  },
  /**
   * Buying backup (000 §6, §7; 001 §2): the templates on offer to the caller's customer with their billing
   * prices (ours: the specification shows the table, not its call), purchase and up/downgrade (super admin).
   */
  purchase: {
    templates: get('/admin/packagetemplates', 'customerAdmin', { response: answer<TemplatesOnOffer>() }),
    purchase: post('/admin/backuppackages', 'customerSuperAdmin', {
      body: packagePurchaseSchema,
      response: answer<PurchaseResult>(),
    }),
    upgrade: put('/admin/backuppackages/:packageId/upgrade', 'customerSuperAdmin', {
      body: packageUpgradeSchema,
      response: answer<PurchaseResult>(),
    }),
  },
  // --- Billing (issue 15): billing host servers (001 §2), the billing redirect (002 §7.2), billing server change ---
  billing: {
    /** GET /billing/info?goToUrl={encoded} (002 §7.2): a single sign-on link into the caller's billing system. */
    info: get('/billing/info', 'customerMember', {
      query: billingInfoQuerySchema,
      response: answer<BillingInfo>(),
    }),
    /** The provider's billing host servers (001 §2; paths ours, the spec names the list whmcsServerDisplayDtos). */
    servers: get('/boltadmin/whmcsservers', 'providerAdmin', { response: answer<BillingServerRow[]>() }),
    addServer: post('/boltadmin/whmcsservers', 'providerAdmin', {
      body: billingServerAddSchema,
      response: answer<BillingServerRow>(),
    }),
    editServer: put('/boltadmin/whmcsservers/:whmcsServerId', 'providerAdmin', {
      body: billingServerEditSchema,
      response: answer<BillingServerRow>(),
    }),
    deleteServer: del('/boltadmin/whmcsservers/:whmcsServerId', 'providerAdmin', { response: answer<null>() }),
    testServer: post('/boltadmin/whmcsservers/:whmcsServerId/testconnection', 'providerAdmin', {
      response: answer<BillingConnectionResult>(),
    }),
    /** Test connection of the add/edit form before it is saved. */
    testForm: post('/boltadmin/whmcsservers/testconnection', 'providerAdmin', {
      body: billingServerTestSchema,
      response: answer<BillingConnectionResult>(),
    }),
  },
  /**
   * Storage accounts (001 §2, §7; issue 16): the paged list, set default (a GET, as 001 §7 has it), the account
   * page (its path answers JSON callers, the SPA answers browsers), buckets with policy info, users and keys
   * (each read once and paged in the browser), deleting a user or a policy principal. Ours ('not shown'): add,
   * edit and test connection.
   */
  storageAccounts: {
    list: get('/boltadmin/storageaccountspaginated', 'providerAdmin', pagedList<StorageAccountRow>()),
    setDefault: get('/boltadmin/storageaccounts/setDefaultStorageAccount', 'providerAdmin', {
      query: setDefaultStorageAccountQuerySchema,
      response: answer<StorageAccountRow>(),
    }),
    add: post('/boltadmin/storageaccounts', 'providerAdmin', {
      body: storageAccountAddSchema,
      response: answer<StorageAccountDetail>(),
    }),
    /** Test connection of the add/edit form before it is saved ({ id } of the account it edits). */
    testConnection: post('/boltadmin/storageaccounts/testconnection', 'providerAdmin', {
      body: storageAccountTestSchema,
      response: answer<null>(),
    }),
    detail: get('/boltadmin/storageaccounts/:storageAccountId', 'providerAdmin', {
      response: answer<StorageAccountDetail>(),
    }),
    /** An empty secret keeps the stored one. */
    edit: put('/boltadmin/storageaccounts/:storageAccountId', 'providerAdmin', {
      body: storageAccountEditSchema,
      response: answer<StorageAccountDetail>(),
    }),
    /** An account that is not the default and has no managed bucket or storage location. */
    remove: del('/boltadmin/storageaccounts/:storageAccountId', 'providerAdmin', { response: answer<null>() }),
    buckets: get('/boltadmin/storageaccounts/:storageAccountId/bucketswithpolicyinfo', 'providerAdmin', {
      response: answer<Elements<BucketWithPolicyInfo>>(),
    }),
    users: get('/boltadmin/storageaccounts/:storageAccountId/users', 'providerAdmin', {
      response: answer<Elements<StorageAccountUserRow>>(),
    }),
    accessKeys: get('/boltadmin/storageaccounts/:storageAccountId/accesskeys', 'providerAdmin', {
      response: answer<Elements<StorageAccessKeyRow>>(),
    }),
    deleteUser: put('/boltadmin/storageaccounts/:storageAccountId/deleteuser', 'providerAdmin', {
      body: storageUserDeleteSchema,
      response: answer<null>(),
    }),
    deletePrincipal: put('/boltadmin/storageaccounts/:storageAccountId/deletebucketpolicyprincipal', 'providerAdmin', {
      body: bucketPolicyPrincipalDeleteSchema,
      response: answer<null>(),
    }),
  },
  /**
   * Package migrations and the storage account migration (001 §2, §7; issue 16). The detail, finalise and
   * destinations calls are ours (the spec shows the page and its buttons, not their calls).
   */
  migrations: {
    create: post(MIGRATIONS, 'providerAdmin', {
      body: migrationCreateSchema(),
      response: answer<PackageMigrationRow>(),
    }),
    /** Paged, loaded once (001 §9): every migration of the package in one page. */
    list: get(MIGRATIONS, 'providerAdmin', { response: answer<Paged<PackageMigrationRow>>() }),
    /** The create dialog's choices: the customer's locations other than the package's current one. */
    destinations: get(`${MIGRATIONS}/destinations`, 'providerAdmin', {
      response: answer<Elements<MigrationLocation>>(),
    }),
    detail: get(MIGRATION, 'providerAdmin', { response: answer<PackageMigrationDetail>() }),
    cancel: put(`${MIGRATION}/cancel`, 'providerAdmin', { response: answer<PackageMigrationDetail>() }),
    rollback: put(`${MIGRATION}/rollback`, 'providerAdmin', { response: answer<PackageMigrationDetail>() }),
    finalize: put(`${MIGRATION}/finalize`, 'providerAdmin', { response: answer<PackageMigrationDetail>() }),
    submit: put(`${MIGRATION}/commandsequences`, 'providerAdmin', {
      body: syncCommandSchema,
      response: answer<PackageMigrationDetail>(),
    }),
    stop: put(`${MIGRATION}/commandsequences/stop`, 'providerAdmin', {
      body: commandIdBody,
      response: answer<null>(),
    }),
    remove: put(`${MIGRATION}/commandsequences/delete`, 'providerAdmin', {
      body: commandIdBody,
      response: answer<null>(),
    }),
    /** Every package on the account moves to the destination account (answers the migrations started). */
    storageAccount: post('/boltadmin/storageaccounts/:storageAccountId/migrations', 'providerAdmin', {
      body: storageAccountMigrationSchema(),
      response: answer<Elements<PackageMigrationRow>>(),
    }),
  },
  /**
   * A customer's storage locations (001 §7, base /boltadmin/customers/{customerId}): create (body
   * storageAccountId), delete, make default; ours: the list (all, fetched once) and one location's page.
   */
  storageLocations: {
    list: get('/boltadmin/customers/:customerId/storagelocations', 'providerAdmin', {
      response: answer<Elements<StorageLocationRow>>(),
    }),
    detail: get('/boltadmin/customers/:customerId/storagelocations/:storageLocationId', 'providerAdmin', {
      response: answer<StorageLocationDetail>(),
    }),
    create: post('/boltadmin/customers/:customerId/storagelocations', 'providerAdmin', {
      body: storageLocationCreateSchema,
      response: answer<StorageLocationRow>(),
    }),
    remove: del('/boltadmin/customers/:customerId/storagelocations/:storageLocationId', 'providerAdmin', {
      response: answer<null>(),
    }),
    makeDefault: put(
      '/boltadmin/customers/:customerId/storagelocations/:storageLocationId/makedefault',
      'providerAdmin',
      {
        response: answer<StorageLocationRow>(),
      },
    ),
    /** Ours: the storage accounts the Create dialog offers (all of them, the default first). */
    accountChoices: get('/boltadmin/customers/:customerId/storagelocationaccounts', 'providerAdmin', {
      response: answer<Elements<StorageAccountChoice>>(),
    }),
    /** Ours (issue 16): a machine on an S3 location gets a new storage key; its agent is sent it, the old one goes. */
    rotateMachineKey: put(`${PROVIDER_MACHINE}/storagekey/rotate`, 'providerAdmin', { response: answer<null>() }),
  },
  /**
   * Ours (issue 17): the notification settings of the caller's own customer, its super admin's only
   * (002 §2.1): the alert thresholds, each user's alerts and machines, the machine chooser, and the
   * customer's mails that could not be delivered.
   */
  notificationSettings: {
    thresholds: get('/admin/notificationsettings/thresholds', 'customerSuperAdmin', {
      response: answer<NotificationThresholds>(),
    }),
    saveThresholds: put('/admin/notificationsettings/thresholds', 'customerSuperAdmin', {
      body: notificationThresholdsSchema,
      response: answer<NotificationThresholds>(),
    }),
    users: get('/admin/notificationsettings/users', 'customerSuperAdmin', {
      query: notificationSearchQuerySchema,
      response: answer<Paged<NotificationUserRow>>(),
    }),
    saveUser: put('/admin/notificationsettings/users/:userId', 'customerSuperAdmin', {
      body: notificationUserSettingsSchema,
      response: answer<NotificationUserRow>(),
    }),
    machines: get('/admin/notificationsettings/machines', 'customerSuperAdmin', {
      query: notificationSearchQuerySchema,
      response: answer<Paged<NotificationMachineOption>>(),
    }),
  },
} as const;

/** The paged customer lists' names (ROUTES.customers.lists). */
export type CustomerList = keyof typeof ROUTES.customers.lists;

/**
 * What a user who must set up two-factor sign-in before anything else may call (issue 18): the enrolment
 * and signing out. Public routes answer them as they answer anyone.
 */
export const MFA_ENROLMENT_ROUTES: readonly RouteEntry[] = [
  ROUTES.mfa.status,
  ROUTES.mfa.start,
  ROUTES.mfa.confirm,
  ROUTES.auth.signOut,
];

/** Every entry of the table with its key there (`customers.provider.remove`), in the table's order. */
export function keyedRoutes(): Array<{ key: string; entry: RouteEntry }> {
  const out: Array<{ key: string; entry: RouteEntry }> = [];
  const visit = (node: object, prefix: string) => {
    for (const [name, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (value && typeof value === 'object' && 'method' in value && 'build' in value)
        out.push({ key, entry: value as RouteEntry });
      else if (value && typeof value === 'object' && !(value instanceof z.ZodType)) visit(value, key);
    }
  };
  visit(ROUTES, '');
  return out;
}

/** Every entry of the table, for the server's start-up check and the route matrix test. */
export const allRoutes = (): RouteEntry[] => keyedRoutes().map(({ entry }) => entry);

/** The route of this key is for a person at a session only (SESSION_ONLY_ROUTES): no API token calls it. */
export const isSessionOnlyRoute = (key: string): boolean =>
  SESSION_ONLY_ROUTES.some((name) => key === name || key.startsWith(`${name}.`));

let sessionOnlyEntries: ReadonlySet<RouteEntry> | null = null;

/** Whether an entry is session-only, for the server's check before the handler (and a look at its body). */
export function sessionOnlyEntry(entry: RouteEntry): boolean {
  sessionOnlyEntries ??= new Set(keyedRoutes().flatMap(({ key, entry }) => (isSessionOnlyRoute(key) ? [entry] : [])));
  return sessionOnlyEntries.has(entry);
}

/**
 * The specification's routes whose method does not say whether they change state: the GET that sets the default
 * storage account (001 §2), and the PUT of a machine's message log and the POST of the file tree, which only read.
 */
const STATE_CHANGING_READS = new Set([`GET ${ROUTES.storageAccounts.setDefault.path}`]);
const READING_WRITES = new Set([`PUT ${ROUTES.machines.messages.path}`, `POST ${ROUTES.treeItems.list.path}`]);

/**
 * Whether a call changes state, by its method and its route's path pattern: what needs the CSRF token, what a
 * read-only API token may not call, and what the audit trail records.
 */
export function changesState(method: string, pathPattern: string): boolean {
  const key = `${method} ${pathPattern}`;
  if (STATE_CHANGING_READS.has(key)) return true;
  if (READING_WRITES.has(key)) return false;
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}
