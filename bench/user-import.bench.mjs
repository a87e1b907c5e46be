// The bulk user import benchmark (bench/README.md): 1,000 rows within 30 s. Set BENCH_IMPORT=0 to leave it
// out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_IMPORT',
  name: 'Bulk user import',
  heading: 'Bulk user import: 1,000 rows',
  script: 'bench/user-import/run.ts',
});
