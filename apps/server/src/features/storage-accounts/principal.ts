/** The ARN prefix of a storage user in a bucket policy (Ceph RGW and AWS alike). */
const USER_ARN = 'arn:aws:iam:::user/';

interface Statement {
  Principal?: { AWS?: string | string[] } | string;
  [key: string]: unknown;
}

/**
 * The policy without any grant to `principal`: the user's ARN leaves every statement's principals, and a
 * statement left with none goes. Null when the policy does not name the user (nothing to change) or is
 * not a policy the portal can read.
 */
export function policyWithoutPrincipal(policy: string, principal: string): string | null {
  let parsed: { Statement?: Statement | Statement[]; [key: string]: unknown };
  try {
    parsed = JSON.parse(policy);
  } catch {
    return null;
  }
  const statements = Array.isArray(parsed.Statement) ? parsed.Statement : parsed.Statement ? [parsed.Statement] : [];
  const names = new Set([principal, `${USER_ARN}${principal}`]);
  let changed = false;
  const kept = statements.flatMap((statement): Statement[] => {
    const aws = typeof statement.Principal === 'object' ? statement.Principal.AWS : undefined;
    if (aws === undefined) return [statement];
    const all = Array.isArray(aws) ? aws : [aws];
    const rest = all.filter((arn) => !names.has(arn));
    if (rest.length === all.length) return [statement];
    changed = true;
    return rest.length === 0 ? [] : [{ ...statement, Principal: { ...(statement.Principal as object), AWS: rest } }];
  });
  return changed ? JSON.stringify({ ...parsed, Statement: kept }) : null;
}
