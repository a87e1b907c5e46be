import { z } from 'zod';
import { valuesWithTexts } from './enum-texts.js';
import { displayText } from './forms/fields.js';

/**
 * Personal API tokens (issue 18): a user's own credential for automation, sent as `Authorization: Bearer
 * <token>` on the JSON routes, with exactly its owner's rights; a read-only one only reads.
 */
export const [API_TOKEN_SCOPES, API_TOKEN_SCOPE_TEXTS] = valuesWithTexts([
  ['READ_ONLY', 'Read only'],
  ['READ_WRITE', 'Read and write'],
]);
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_LIMITS = {
  /** What every token starts with, so a leaked one is recognised by secret scanners and people. */
  prefix: 'cpt_',
  /** Live (not revoked, not expired) tokens a user may hold at once. */
  maxPerUser: 10,
  nameMaxLength: 50,
  /** The lifetimes offered; every token expires (a forgotten token must not live for ever). */
  expiryDays: [7, 30, 90, 365] as const,
  /** Last use is written at most this often, so a busy script does not turn every read into a write. */
  lastUsedSlackMs: 60_000,
} as const;

export const API_TOKEN_MESSAGES = {
  scopeRequired: 'Choose what the token may do',
  expiryRequired: 'Choose when the token expires',
  tooMany: `You can have at most ${API_TOKEN_LIMITS.maxPerUser} API tokens. Revoke one you no longer use first.`,
  readOnlyToken: 'This API token is read-only: it cannot change anything.',
  sessionRequired:
    'This needs you signed in to the portal: an API token cannot manage API tokens or two-factor sign-in.',
  bothCredentials: 'Send either an API token or a session cookie, not both.',
  notFound: 'API token not found',
  created: 'API token created. Copy it now: it is not shown again.',
  revoked: 'API token revoked',
  unknownWhileCreating: 'An unknown error occurred while creating the API token.',
  unknownWhileRevoking: 'An unknown error occurred while revoking the API token.',
  partial: 'API token changed but some errors occurred.',
  confirmRevoke: (name: string) =>
    `Revoke the API token "${name}"? Scripts that use it are refused from now on. This cannot be undone.`,
  copied: 'Copied',
  none: 'No API tokens yet',
  intro:
    'Personal API tokens let your own scripts call the portal’s API with your rights: send one as "Authorization: Bearer <token>".',
} as const;

export const API_TOKEN_FORM_LABELS = { name: 'Name', scope: 'Access', expiresInDays: 'Expires in' } as const;

/** The profile page's card of personal API tokens. */
export const API_TOKEN_SECTION_TITLE = 'API tokens';

/** The expiry choices as the create dialog offers them. */
export const API_TOKEN_EXPIRY_OPTIONS = API_TOKEN_LIMITS.expiryDays.map((days) => ({
  value: days,
  label: days === 365 ? '1 year' : `${days} days`,
}));

export const apiTokenCreateSchema = z.object({
  name: displayText(API_TOKEN_FORM_LABELS.name, API_TOKEN_LIMITS.nameMaxLength),
  scope: z.enum(API_TOKEN_SCOPES, { error: API_TOKEN_MESSAGES.scopeRequired }),
  // A number, also as the text a select gives; only one of the offered lifetimes.
  expiresInDays: z.coerce
    .number({ error: API_TOKEN_MESSAGES.expiryRequired })
    .refine(
      (days) => (API_TOKEN_LIMITS.expiryDays as readonly number[]).includes(days),
      API_TOKEN_MESSAGES.expiryRequired,
    )
    // The refinement has no JSON Schema: the OpenAPI document names the lifetimes it allows this way.
    .meta({ enum: [...API_TOKEN_LIMITS.expiryDays], description: 'Days until the token expires' }),
});
export type ApiTokenCreate = z.output<typeof apiTokenCreateSchema>;
export type ApiTokenCreateInput = z.input<typeof apiTokenCreateSchema>;

/** A token as the profile's table lists it; the secret itself is never listed. */
export interface ApiTokenRow {
  id: number;
  name: string;
  scope: ApiTokenScope;
  /** The first characters of the token, so its owner can tell which one a script uses. */
  hint: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

/** The answer of creating a token: the only time the secret is shown. */
export interface ApiTokenCreated {
  row: ApiTokenRow;
  token: string;
}

/**
 * The token of `Authorization: Bearer <token>`: null when the header is absent or names another scheme, and
 * '' for a Bearer header without a usable token (still a token attempt, refused as unknown).
 */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer(?:[ \t]+(.*))?$/i.exec(header ?? '');
  if (!match) return null;
  const token = (match[1] ?? '').trim();
  return /^\S+$/.test(token) ? token : '';
}

/**
 * The route groups and routes an API token may not call, only a person at a session: tokens, two-factor sign-in,
 * and an account's requirement of it (a leaked token must not turn that off).
 */
export const SESSION_ONLY_ROUTES = ['apiTokens', 'mfa', 'account.mfaPolicy'] as const;
