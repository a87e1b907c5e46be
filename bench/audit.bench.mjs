// The audit trail benchmark (bench/README.md): each audit page filter over a million records within 200 ms.
// Set BENCH_AUDIT=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_AUDIT',
  name: 'Audit trail',
  heading: 'Audit trail: the pages over a million records',
  script: 'bench/audit/run.ts',
});
