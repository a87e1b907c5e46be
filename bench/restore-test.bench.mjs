// Restore tests (bench/README.md): one test of 1,000 sampled files through the agent's own test, beside a bare
// restic restore of the same files. Set BENCH_RESTORE_TEST=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_RESTORE_TEST',
  name: 'Restore test',
  heading: 'Restore test: 1,000 sampled files',
  script: 'bench/restore-test/thousand-files.ts',
});
