import type { S3ReplacementScan } from '../features/storage-tampering/service.js';
import type { Job } from './runner.js';

/**
 * Issue 32: every few hours (S3_REPLACEMENT_SCAN_MINUTES), the repositories in Object Lock buckets are listed with
 * the account's key and any object a machine replaced is put back and reported (features/storage-tampering).
 */
export function s3ReplacementsJob(deps: { scan: Pick<S3ReplacementScan, 'pass'>; everyMs: number }): Job<number> {
  return {
    name: 's3-replacements',
    everyMs: deps.everyMs,
    timeoutMs: 60 * 60_000,
    run: () => deps.scan.pass(),
  };
}
