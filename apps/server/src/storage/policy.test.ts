import { POLICY_DIFFERENCE_TEXTS } from '@portal/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketPolicyFor, POLICY_VERSION, policyDifferences, policyPrincipals } from './policy.js';
import type { PolicyGrant } from './provider.js';

interface Statement {
  Effect: string;
  Principal: { AWS: string | string[] };
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}
const statementsOf = (policy: string) => (JSON.parse(policy) as { Statement: Statement[] }).Statement;
const withStatements = (statements: Statement[]) => JSON.stringify({ Version: POLICY_VERSION, Statement: statements });
const asList = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** Every (user, action, resource) the policy allows, condition aside. */
function allowed(policy: string): string[] {
  return statementsOf(policy).flatMap((s) =>
    asList(s.Principal.AWS).flatMap((p) =>
      asList(s.Action).flatMap((a) => asList(s.Resource).map((r) => `${p.split('/')[1]} ${a} ${r}`)),
    ),
  );
}

const grants: PolicyGrant[] = [
  { userName: 'portal-location-3', role: 'location', prefix: 'acme' },
  { userName: 'portal-machine-12', role: 'machine', prefix: 'acme/12' },
  { userName: 'portal-machine-13', role: 'machine', prefix: '/acme/13/' },
];

describe('bucketPolicyFor', () => {
  const policy = bucketPolicyFor('c7-acme', grants);

  it('names each user by its IAM ARN and uses the 2012-10-17 policy language', () => {
    expect(JSON.parse(policy).Version).toBe('2012-10-17');
    expect(new Set(statementsOf(policy).flatMap((s) => asList(s.Principal.AWS)))).toEqual(
      new Set(grants.map((g) => `arn:aws:iam:::user/${g.userName}`)),
    );
  });

  it("gives a machine read and write in its own folder and delete only of restic's locks", () => {
    const own = allowed(policy).filter((line) => line.startsWith('portal-machine-12 '));
    expect(own).toContain('portal-machine-12 s3:GetObject arn:aws:s3:::c7-acme/acme/12/*');
    expect(own).toContain('portal-machine-12 s3:PutObject arn:aws:s3:::c7-acme/acme/12/*');
    expect(own).toContain('portal-machine-12 s3:DeleteObject arn:aws:s3:::c7-acme/acme/12/locks/*');
    expect(own.filter((line) => /Delete/.test(line))).toEqual([
      'portal-machine-12 s3:DeleteObject arn:aws:s3:::c7-acme/acme/12/locks/*',
    ]);
    expect(own.filter((line) => /Version/.test(line))).toEqual([]);
    // Nothing outside its folder but the bucket itself (listing, limited below).
    for (const line of own) expect(line).toMatch(/ arn:aws:s3:::c7-acme(\/acme\/12\/.*)?$/);
  });

  it('lets a machine list only its own folder (or HEAD the bucket, with no listing parameter)', () => {
    const listings = statementsOf(policy).filter(
      (s) => asList(s.Principal.AWS)[0]?.endsWith('/portal-machine-13') && asList(s.Action).includes('s3:ListBucket'),
    );
    expect(listings.map((s) => s.Condition)).toEqual([
      { StringLike: { 's3:prefix': ['acme/13/*', 'acme/13'] } },
      { Null: { 's3:prefix': 'true', 's3:max-keys': 'true' } },
    ]);
  });

  it('gives a location every object action under its folder', () => {
    const own = allowed(policy).filter((line) => line.startsWith('portal-location-3 '));
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:DeleteObjectVersion'])
      expect(own).toContain(`portal-location-3 ${action} arn:aws:s3:::c7-acme/acme/*`);
  });

  it('gives a location without subfolder the whole bucket, unconditioned', () => {
    const whole = bucketPolicyFor('b1', [{ userName: 'loc', role: 'location', prefix: '' }]);
    expect(allowed(whole)).toContain('loc s3:DeleteObject arn:aws:s3:::b1/*');
    expect(statementsOf(whole).every((s) => s.Condition === undefined)).toBe(true);
  });

  it('has no statement without grants', () => {
    expect(statementsOf(bucketPolicyFor('b1', []))).toEqual([]);
  });
});

const grantArb = fc.record({
  userName: fc.stringMatching(/^portal-[a-z0-9-]{1,12}$/),
  role: fc.constantFrom('location' as const, 'machine' as const),
  prefix: fc.stringMatching(/^([a-z0-9]{1,6}(\/[0-9]{1,4})?)?$/),
});
const grantsArb = fc.uniqueArray(grantArb, { selector: (g) => g.userName, maxLength: 6 });

describe('policyDifferences', () => {
  it('finds a policy equal to itself, whatever the grants', () => {
    fc.assert(
      fc.property(grantsArb, (gs) => {
        const policy = bucketPolicyFor('bucket-1', gs);
        expect(policyDifferences(policy, policy)).toEqual([]);
      }),
    );
  });

  it('ignores statement order, action and resource order, single-versus-array forms and extra Sids', () => {
    fc.assert(
      fc.property(grantsArb, fc.integer(), (gs, seed) => {
        const expected = bucketPolicyFor('bucket-1', gs);
        const shuffled = fc.sample(
          fc.shuffledSubarray(statementsOf(expected), { minLength: statementsOf(expected).length }),
          {
            seed,
            numRuns: 1,
          },
        )[0] as Statement[];
        const reshaped = shuffled.map((s, i) => {
          const actions = [...asList(s.Action)].reverse();
          const principals = asList(s.Principal.AWS);
          return {
            ...s,
            Sid: `s${i}`,
            Action: actions.length === 1 ? (actions[0] as string) : actions,
            Principal: { AWS: principals.length === 1 ? (principals[0] as string) : principals },
            Resource: asList(s.Resource).length === 1 ? (asList(s.Resource)[0] as string) : s.Resource,
          };
        });
        expect(policyDifferences(withStatements(reshaped), expected)).toEqual([]);
      }),
    );
  });

  it('names a missing user, and a user the service has that the records do not', () => {
    const expected = bucketPolicyFor('b', grants);
    const statements = statementsOf(expected);
    const withoutMachine = statements.filter((s) => !asList(s.Principal.AWS)[0]?.endsWith('/portal-machine-12'));
    expect(policyDifferences(withStatements(withoutMachine), expected)).toEqual([
      POLICY_DIFFERENCE_TEXTS.missingUser('portal-machine-12'),
    ]);
    const stranger = { ...statements[0], Principal: { AWS: 'arn:aws:iam:::user/stranger' } } as Statement;
    expect(policyDifferences(withStatements([...statements, stranger]), expected)).toEqual([
      POLICY_DIFFERENCE_TEXTS.unexpectedUser('stranger'),
    ]);
    const everyone = { ...statements[0], Principal: '*' } as unknown as Statement;
    expect(policyDifferences(withStatements([...statements, everyone]), expected)).toEqual([
      POLICY_DIFFERENCE_TEXTS.unexpectedPrincipal('*'),
    ]);
  });

  it('names a right added at the service, one taken away, and a changed condition', () => {
    const expected = bucketPolicyFor('b', grants);
    const statements = statementsOf(expected);
    const added = {
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam:::user/portal-machine-12' },
      Action: 's3:DeleteObject',
      Resource: 'arn:aws:s3:::b/acme/12/*',
    };
    expect(policyDifferences(withStatements([...statements, added]), expected)).toEqual([
      'User portal-machine-12 may also s3:DeleteObject on arn:aws:s3:::b/acme/12/*',
    ]);

    const taken = statements.map((s) =>
      asList(s.Principal.AWS)[0]?.endsWith('/portal-machine-12') && asList(s.Action).includes('s3:PutObject')
        ? { ...s, Action: ['s3:GetObject'] }
        : s,
    );
    expect(policyDifferences(withStatements(taken), expected)).toEqual([
      'User portal-machine-12 may not s3:PutObject on arn:aws:s3:::b/acme/12/*',
    ]);

    const widened = statements.map((s) =>
      s.Condition?.StringLike && asList(s.Principal.AWS)[0]?.endsWith('/portal-machine-13')
        ? { ...s, Condition: { StringLike: { 's3:prefix': ['acme/*'] } } }
        : s,
    );
    expect(policyDifferences(withStatements(widened), expected)).toEqual([
      'User portal-machine-13 may not s3:ListBucket on arn:aws:s3:::b when s3:prefix StringLike acme/13, acme/13/*',
      'User portal-machine-13 may also s3:ListBucket on arn:aws:s3:::b when s3:prefix StringLike acme/*',
    ]);
  });

  it('names a Deny the service has', () => {
    const expected = bucketPolicyFor('b', grants);
    const deny = {
      Effect: 'Deny',
      Principal: { AWS: ['arn:aws:iam:::user/portal-location-3'] },
      Action: ['s3:DeleteObject'],
      Resource: ['arn:aws:s3:::b/acme/*'],
    };
    expect(policyDifferences(withStatements([...statementsOf(expected), deny]), expected)).toEqual([
      'User portal-location-3 is also denied s3:DeleteObject on arn:aws:s3:::b/acme/*',
    ]);
  });

  it('says when there is no policy or an unreadable one, and when its version differs', () => {
    const expected = bucketPolicyFor('b', grants);
    expect(policyDifferences(null, expected)).toEqual([POLICY_DIFFERENCE_TEXTS.noPolicy]);
    expect(policyDifferences('  ', expected)).toEqual([POLICY_DIFFERENCE_TEXTS.noPolicy]);
    expect(policyDifferences('{not json', expected)).toEqual([POLICY_DIFFERENCE_TEXTS.unreadable]);
    expect(policyDifferences('{"Statement": [{"Effect": "Maybe"}]}', expected)).toEqual([
      POLICY_DIFFERENCE_TEXTS.unreadable,
    ]);
    const old = JSON.stringify({ ...JSON.parse(expected), Version: '2008-10-17' });
    expect(policyDifferences(old, expected)).toEqual([
      POLICY_DIFFERENCE_TEXTS.wrongVersion('2008-10-17', '2012-10-17'),
    ]);
  });
});

describe('policyPrincipals', () => {
  it("lists the policy's users once each, whatever the grants", () => {
    fc.assert(
      fc.property(grantsArb, (gs) => {
        expect(policyPrincipals(bucketPolicyFor('b', gs)).sort()).toEqual(gs.map((g) => g.userName).sort());
      }),
    );
  });

  it('reads user ARNs with a tenant, leaves out everyone, and reads nothing from an unreadable text', () => {
    const text = JSON.stringify({
      Version: POLICY_VERSION,
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: 'arn:aws:iam::tenant1:user/alice' },
          Action: 's3:GetObject',
          Resource: 'x',
        },
        { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'x' },
      ],
    });
    expect(policyPrincipals(text)).toEqual(['alice']);
    expect(policyPrincipals('nope')).toEqual([]);
  });
});
