// The download throughput benchmark (issue 14): the portal's zip at ≥ 80 % of bare `restic dump`. Set
// BENCH_DOWNLOAD=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_DOWNLOAD',
  name: 'Download',
  heading: 'Download throughput: portal zip vs bare restic dump',
  script: 'bench/download/run.ts',
});
