import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { sendOnce } from '../net/guarded-http.js';
import type { OutboundGuard } from '../net/outbound-guard.js';

/**
 * One SigV4-signed HTTP request without a body (its parameters in the query), for the service APIs the
 * S3 SDK does not cover: Ceph RGW's admin-ops API and the IAM query API. It goes through the outbound
 * guard's agents, so the address connected to is checked.
 */
export async function signedRequest(input: {
  base: URL;
  service: 's3' | 'iam';
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  method: 'GET' | 'PUT' | 'DELETE';
  path: string;
  query: Record<string, string>;
  guard: OutboundGuard;
  /** The request's deadline (AbortSignal.timeout). */
  signal: AbortSignal;
}): Promise<{ status: number; body: string }> {
  const { base } = input;
  const signer = new SignatureV4({
    credentials: input.credentials,
    region: input.region,
    service: input.service,
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: input.method,
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port === '' ? undefined : Number(base.port),
    path: `${base.pathname.replace(/\/+$/, '')}${input.path}`,
    query: input.query,
    // No body; RGW's admin-ops answers 501 to a signed payload hash on some requests.
    headers: { host: base.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
  });
  const search = Object.entries(input.query)
    .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`)
    .join('&');
  const answer = await sendOnce(base, {
    method: input.method,
    path: `${signed.path}?${search}`,
    headers: signed.headers,
    agent: base.protocol === 'https:' ? input.guard.httpsAgent : input.guard.httpAgent,
    signal: input.signal,
  });
  return { status: answer.status, body: answer.body };
}

const encodeRfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
