/**
 * What the portal says when an object storage service (a storage account's S3 endpoint, or the embedded
 * store) fails or when a bucket's policy differs from the one the portal's records require (ours: 001
 * leaves these open). The server's storage providers raise them and the storage screens show them, so
 * they are declared once here; MESSAGES.storageService refers to them.
 */
export const STORAGE_SERVICE_TEXTS = {
  endpointNotUrl: 'The endpoint must be a URL starting with http:// or https://',
  unreachable: 'The storage service could not be reached at this endpoint',
  timedOut: 'The storage service did not answer in time',
  refusedAddress:
    'The endpoint resolves to an address the portal may not connect to (loopback, private, link-local or cloud metadata)',
  unknownAccessKey: 'The storage service does not know this access key',
  wrongSecret: 'The secret access key is not correct',
  denied: 'The storage service refused the request: the access key lacks the right',
  cannotManageUsers:
    'The access key may not manage users and keys (Ceph RGW needs the capabilities users=*;buckets=*;metadata=*)',
  bucketTaken: 'The bucket name is taken by another owner of the storage service',
  objectLockUnsupported: 'The storage service does not support S3 Object Lock',
  iamUnsupported: 'The storage service does not offer the IAM API for users and keys',
  malformed: 'The storage service answered something the portal could not read',
  failed: 'The storage service could not carry out the request',
  notEmbeddedName: 'The name cannot be used on the embedded storage',
  noUserApi: 'The storage account does not say how its users and keys are managed',
  accountNotFound: 'The storage account does not exist',
} as const;

export const bucketNotFound = (bucket: string) => `The bucket ${bucket} does not exist`;
export const storageUserNotFound = (userName: string) => `The storage user ${userName} does not exist`;

/** One difference between a bucket's policy at the service and the one the portal expects. */
export const POLICY_DIFFERENCE_TEXTS = {
  noPolicy: 'No policy at the service',
  unreadable: 'The policy at the service is not valid policy JSON',
  missingUser: (userName: string) => `Missing statement for user ${userName}`,
  unexpectedUser: (userName: string) => `Unexpected statement for user ${userName}`,
  unexpectedPrincipal: (principal: string) => `Unexpected statement for principal ${principal}`,
  /** A right the policy at the service gives (or denies) beyond the expected ones. */
  extraRight: (userName: string, effect: 'Allow' | 'Deny', right: string) =>
    effect === 'Allow' ? `User ${userName} may also ${right}` : `User ${userName} is also denied ${right}`,
  /** An expected right the policy at the service lacks. */
  missingRight: (userName: string, effect: 'Allow' | 'Deny', right: string) =>
    effect === 'Allow' ? `User ${userName} may not ${right}` : `User ${userName} is not denied ${right}`,
  wrongVersion: (found: string, expected: string) => `Policy version ${found} instead of ${expected}`,
} as const;
