import { S3Client } from '@aws-sdk/client-s3';
import type { OutboundGuard } from '../net/outbound-guard.js';

/**
 * An S3 client (AWS SDK v3) for a service a tenant or admin set: every connection through the outbound guard's
 * agents, which check the address connected to. A call's deadline is the AbortSignal.timeout its caller passes
 * to `send`; the handler's own timeouts bound one attempt (a connection that never opens is retried once).
 */
export function createS3Client(options: {
  endpoint: URL;
  region: string;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string };
  guard: OutboundGuard;
  timeoutMs: number;
}): S3Client {
  return new S3Client({
    endpoint: options.endpoint.toString(),
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Ceph RGW (and most S3 services but AWS) refuse the SDK's default checksums on streamed bodies.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: Math.min(options.timeoutMs, 10_000),
      requestTimeout: options.timeoutMs,
      httpAgent: options.guard.httpAgent,
      httpsAgent: options.guard.httpsAgent,
    },
  });
}
