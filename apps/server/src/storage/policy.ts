import type { PolicyGrant } from './provider.js';

/**
 * MINIMAL STAND-IN until the provider helper's policy.ts is merged (same signature): the bucket policy the
 * portal's records require. A location's user may do everything under its folder; a machine's user may
 * list, read and write under its repository's folder and delete only restic's lock files.
 */
export function bucketPolicyFor(bucket: string, grants: PolicyGrant[]): string {
  const principal = (userName: string) => ({ AWS: [`arn:aws:iam:::user/${userName}`] });
  const objects = (prefix: string, rest = '*') => `arn:aws:s3:::${bucket}/${prefix === '' ? '' : `${prefix}/`}${rest}`;
  const listing = (prefix: string) =>
    prefix === '' ? {} : { Condition: { StringLike: { 's3:prefix': [prefix, `${prefix}/*`] } } };
  const statements = grants.flatMap((grant) => {
    const list = {
      Effect: 'Allow',
      Principal: principal(grant.userName),
      Action: ['s3:ListBucket'],
      Resource: [`arn:aws:s3:::${bucket}`],
      ...listing(grant.prefix),
    };
    if (grant.role === 'location') {
      return [
        list,
        {
          Effect: 'Allow',
          Principal: principal(grant.userName),
          Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
          Resource: [objects(grant.prefix)],
        },
      ];
    }
    return [
      list,
      {
        Effect: 'Allow',
        Principal: principal(grant.userName),
        Action: ['s3:GetObject', 's3:PutObject'],
        Resource: [objects(grant.prefix)],
      },
      {
        Effect: 'Allow',
        Principal: principal(grant.userName),
        Action: ['s3:DeleteObject'],
        Resource: [objects(grant.prefix, 'locks/*')],
      },
    ];
  });
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}
