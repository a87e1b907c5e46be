import { POLICY_DIFFERENCE_TEXTS } from '@portal/domain';
import type { PolicyGrant } from './provider.js';

/**
 * Bucket policies (DESIGN §7, issue 16): the policy the portal's records require of a bucket, how it
 * differs from the one found at the service, and who it names. Pure: no I/O.
 */

export const POLICY_VERSION = '2012-10-17';

const USER_ARN_PREFIX = 'arn:aws:iam:::user/';

/** Everything a location's own key (retention, migrations, removal) does with the objects of its folder. */
const LOCATION_OBJECT_ACTIONS = [
  's3:GetObject',
  's3:PutObject',
  's3:DeleteObject',
  's3:GetObjectVersion',
  's3:DeleteObjectVersion',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
];
const LOCATION_LIST_ACTIONS = ['s3:ListBucket', 's3:ListBucketVersions', 's3:ListBucketMultipartUploads'];

/**
 * What restic on a machine needs: it reads `config` and every object, lists keys, locks, snapshots,
 * index and data, writes new objects, and removes only its own lock files. No delete of anything else
 * and no version action, so ransomware holding the key cannot destroy what was backed up (with
 * versioning or Object Lock not even by overwriting it).
 */
const MACHINE_OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject'];

/** The bucket policy that gives each grant its rights, as JSON text. */
export function bucketPolicyFor(bucket: string, grants: PolicyGrant[]): string {
  const statements: PolicyStatement[] = [];
  const bucketArn = `arn:aws:s3:::${bucket}`;
  for (const grant of [...grants].sort((a, b) => a.userName.localeCompare(b.userName))) {
    const principal = { AWS: [`${USER_ARN_PREFIX}${grant.userName}`] };
    const folder = trimSlashes(grant.prefix);
    const under = folder === '' ? `${bucketArn}/` : `${bucketArn}/${folder}/`;
    const allow = (Action: string[], Resource: string, Condition?: PolicyStatement['Condition']): PolicyStatement => ({
      Effect: 'Allow',
      Principal: principal,
      Action,
      Resource: [Resource],
      ...(Condition ? { Condition } : {}),
    });
    const listActions = grant.role === 'location' ? LOCATION_LIST_ACTIONS : ['s3:ListBucket'];
    if (folder === '') statements.push(allow(listActions, bucketArn));
    else
      statements.push(
        // A folder lists only itself.
        allow(listActions, bucketArn, { StringLike: { 's3:prefix': [`${folder}/*`, folder] } }),
        // `restic init` asks whether the bucket exists (HEAD bucket, which S3 checks as s3:ListBucket
        // without any listing parameter). RGW gives every listing s3:max-keys (and s3:prefix when one is
        // asked for), so this lets no listing through: a machine never sees another machine's names.
        allow(['s3:ListBucket'], bucketArn, { Null: { 's3:prefix': 'true', 's3:max-keys': 'true' } }),
      );
    if (grant.role === 'location') statements.push(allow(LOCATION_OBJECT_ACTIONS, `${under}*`));
    else statements.push(allow(MACHINE_OBJECT_ACTIONS, `${under}*`), allow(['s3:DeleteObject'], `${under}locks/*`));
  }
  return JSON.stringify({ Version: POLICY_VERSION, Statement: statements });
}

interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal: unknown;
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/**
 * One right a policy gives or denies a principal: one effect, action and resource under one condition.
 * A policy is the set of its rights, so statement order and grouping, and single-versus-array forms,
 * make no difference.
 */
interface Right {
  principal: string;
  effect: 'Allow' | 'Deny';
  /** `s3:GetObject on arn:aws:s3:::bucket/folder/*` plus its condition, in words. */
  text: string;
}

type ParsedPolicy = { version: string; rights: Right[] } | null;

function parsePolicy(policyText: string): ParsedPolicy {
  let document: unknown;
  try {
    document = JSON.parse(policyText);
  } catch {
    return null;
  }
  if (!isRecord(document)) return null;
  const statements = listOf(document.Statement);
  if (statements === null) return null;
  const rights: Right[] = [];
  for (const statement of statements) {
    if (!isRecord(statement)) return null;
    const effect = statement.Effect;
    if (effect !== 'Allow' && effect !== 'Deny') return null;
    const principals = principalsOf(statement.Principal);
    const actions = listOf(statement.Action);
    const resources = listOf(statement.Resource);
    if (principals === null || actions === null || resources === null) return null;
    const condition = conditionText(statement.Condition);
    if (condition === null) return null;
    for (const principal of principals)
      for (const action of actions)
        for (const resource of resources) {
          if (typeof action !== 'string' || typeof resource !== 'string') return null;
          rights.push({ principal, effect, text: `${action} on ${resource}${condition}` });
        }
  }
  return { version: typeof document.Version === 'string' ? document.Version : '', rights };
}

/** The principals of a statement: user names for user ARNs, the ARN (or '*') itself otherwise. */
function principalsOf(principal: unknown): string[] | null {
  if (principal === '*') return ['*'];
  if (!isRecord(principal)) return null;
  const aws = listOf(principal.AWS);
  if (aws === null || !aws.every((p) => typeof p === 'string')) return null;
  return (aws as string[]).map(userNameOf);
}

function userNameOf(arn: string): string {
  // `arn:aws:iam::{tenant}:user/{name}`: RGW and AWS both name users this way; the tenant part may be empty.
  const match = /^arn:aws:iam::[^:]*:user\/(.+)$/.exec(arn);
  return match?.[1] ?? arn;
}

/** A condition block in canonical words (operators, keys and values sorted); null when unreadable. */
function conditionText(condition: unknown): string | null {
  if (condition === undefined) return '';
  if (!isRecord(condition)) return null;
  const parts: string[] = [];
  for (const operator of Object.keys(condition).sort()) {
    const tests = condition[operator];
    if (!isRecord(tests)) return null;
    for (const key of Object.keys(tests).sort()) {
      const values = listOf(tests[key]);
      if (values === null) return null;
      parts.push(`${key} ${operator} ${values.map(String).sort().join(', ')}`);
    }
  }
  return parts.length === 0 ? '' : ` when ${parts.join(' and ')}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A policy field that may be one value or an array of them. */
function listOf(value: unknown): unknown[] | null {
  if (value === undefined || value === null) return null;
  return Array.isArray(value) ? value : [value];
}

const trimSlashes = (value: string) => value.replace(/^\/+|\/+$/g, '');

/**
 * How the policy found at the service differs from the expected one: [] when they give the same rights
 * to the same principals, else one readable line per difference.
 */
export function policyDifferences(found: string | null, expected: string): string[] {
  if (found === null || found.trim() === '') return [POLICY_DIFFERENCE_TEXTS.noPolicy];
  const want = parsePolicy(expected);
  if (want === null) throw new Error('the expected policy is not valid policy JSON');
  const have = parsePolicy(found);
  if (have === null) return [POLICY_DIFFERENCE_TEXTS.unreadable];

  const differences: string[] = [];
  if (have.version !== want.version) differences.push(POLICY_DIFFERENCE_TEXTS.wrongVersion(have.version, want.version));
  const wanted = byPrincipal(want.rights);
  const held = byPrincipal(have.rights);
  for (const [principal, rights] of wanted) {
    const found = held.get(principal);
    if (!found) {
      differences.push(POLICY_DIFFERENCE_TEXTS.missingUser(principal));
      continue;
    }
    for (const [key, right] of rights)
      if (!found.has(key)) differences.push(POLICY_DIFFERENCE_TEXTS.missingRight(principal, right.effect, right.text));
    for (const [key, right] of found)
      if (!rights.has(key)) differences.push(POLICY_DIFFERENCE_TEXTS.extraRight(principal, right.effect, right.text));
  }
  for (const principal of held.keys())
    if (!wanted.has(principal))
      differences.push(
        principal.startsWith('arn:') || principal === '*'
          ? POLICY_DIFFERENCE_TEXTS.unexpectedPrincipal(principal)
          : POLICY_DIFFERENCE_TEXTS.unexpectedUser(principal),
      );
  return differences;
}

function byPrincipal(rights: Right[]): Map<string, Map<string, Right>> {
  const map = new Map<string, Map<string, Right>>();
  for (const right of rights) {
    const own = map.get(right.principal) ?? new Map<string, Right>();
    own.set(`${right.effect} ${right.text}`, right);
    map.set(right.principal, own);
  }
  return map;
}

/** The user names a policy names as principals, each once, in order of appearance. */
export function policyPrincipals(policyText: string): string[] {
  const parsed = parsePolicy(policyText);
  if (parsed === null) return [];
  const names = parsed.rights.map((right) => right.principal).filter((p) => p !== '*' && !p.startsWith('arn:'));
  return [...new Set(names)];
}
