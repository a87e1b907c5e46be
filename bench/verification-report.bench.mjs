// The verification report benchmark (bench/README.md): the provider's CSV over a million tasks, streamed in
// set-based batches. Set BENCH_REPORT=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_REPORT',
  name: 'Verification report',
  heading: 'Verification report: the provider CSV over a million tasks',
  script: 'bench/verification-report/run.ts',
});
