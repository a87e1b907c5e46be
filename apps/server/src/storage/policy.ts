import { MESSAGES } from '@portal/domain';
import type { PolicyGrant } from './provider.js';

/**
 * Bucket policies as the portal writes and compares them (DESIGN §7). Minimal stand-in until the
 * storage provider work lands (it replaces this file): a location's user may do everything under its
 * folder; a machine's user may list, read and write under its repository's folder and delete only
 * restic's lock files.
 */

const USER_ARN = 'arn:aws:iam:::user/';
const bucketArn = (bucket: string) => `arn:aws:s3:::${bucket}`;
const objectsArn = (bucket: string, prefix: string) => `arn:aws:s3:::${bucket}/${prefix === '' ? '' : `${prefix}/`}*`;

interface Statement {
  Sid?: string;
  Effect: string;
  Principal?: { AWS?: string | string[] } | string;
  Action: string | string[];
  Resource: string | string[];
}

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function statementsOf(grant: PolicyGrant, bucket: string): Statement[] {
  const principal = { AWS: [`${USER_ARN}${grant.userName}`] };
  if (grant.role === 'location') {
    return [
      {
        Effect: 'Allow',
        Principal: principal,
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:ListBucket'],
        Resource: [bucketArn(bucket), objectsArn(bucket, grant.prefix)],
      },
    ];
  }
  return [
    {
      Effect: 'Allow',
      Principal: principal,
      Action: ['s3:GetObject', 's3:PutObject', 's3:ListBucket'],
      Resource: [bucketArn(bucket), objectsArn(bucket, grant.prefix)],
    },
    {
      Effect: 'Allow',
      Principal: principal,
      Action: ['s3:DeleteObject'],
      Resource: [objectsArn(bucket, `${grant.prefix === '' ? '' : `${grant.prefix}/`}locks`)],
    },
  ];
}

/** The policy the portal's records require of a bucket. */
export function bucketPolicyFor(bucket: string, grants: PolicyGrant[]): string {
  const statements = grants.flatMap((grant) => statementsOf(grant, bucket));
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}

function statementsOfText(policy: string): Statement[] | null {
  try {
    const parsed = JSON.parse(policy) as { Statement?: Statement | Statement[] };
    return Array.isArray(parsed.Statement) ? parsed.Statement : parsed.Statement ? [parsed.Statement] : [];
  } catch {
    return null;
  }
}

const principalNames = (statement: Statement) =>
  typeof statement.Principal === 'string'
    ? [statement.Principal]
    : list(statement.Principal?.AWS).map((arn) => (arn.startsWith(USER_ARN) ? arn.slice(USER_ARN.length) : arn));

/** The user names a policy grants or denies anything to. */
export function policyPrincipals(policyText: string): string[] {
  const names = (statementsOfText(policyText) ?? []).flatMap(principalNames);
  return [...new Set(names)];
}

/** Every (principal, effect, action, resource) a policy names, as one comparable text each. */
function atomsOf(policy: string): Map<string, string> | null {
  const statements = statementsOfText(policy);
  if (statements === null) return null;
  const atoms = new Map<string, string>();
  for (const statement of statements) {
    for (const principal of principalNames(statement))
      for (const action of list(statement.Action))
        for (const resource of list(statement.Resource))
          atoms.set(
            `${principal}|${statement.Effect}|${action}|${resource}`,
            `${statement.Effect} ${action} on ${resource} for ${principal}`,
          );
  }
  return atoms;
}

/** What differs between the policy found at the service and the expected one, in words ([]: consistent). */
export function policyDifferences(found: string | null, expected: string): string[] {
  const want = atomsOf(expected) ?? new Map<string, string>();
  if (found === null) return want.size === 0 ? [] : [MESSAGES.storageAccountPages.noPolicyFound];
  const have = atomsOf(found);
  if (have === null) return [MESSAGES.storageAccountPages.policyNotJson];
  const missing = [...want].filter(([key]) => !have.has(key)).map(([, text]) => `Missing: ${text}`);
  const unexpected = [...have].filter(([key]) => !want.has(key)).map(([, text]) => `Not expected: ${text}`);
  return [...missing, ...unexpected];
}
