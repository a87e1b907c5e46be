// The migration throughput benchmark (issue 16): the portal's migration sync at ≥ 80 % of bare `rclone sync`.
// Set BENCH_MIGRATION=0 to leave it out of `npm run bench`; BENCH_MIGRATION_MB / _FILES for a smaller run.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_MIGRATION',
  name: 'Migration',
  heading: 'Migration throughput: portal migration sync vs bare rclone sync',
  script: 'bench/migration/run.ts',
});
