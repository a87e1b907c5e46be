// A data check's read rate (bench/README.md): the portal's rotating data check against bare `restic check
// --read-data` on the same repository. Set BENCH_DATA_CHECK=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_DATA_CHECK',
  name: 'Data check',
  heading: "Data check: the portal's read rate against bare restic check --read-data",
  script: 'bench/data-check/read-rate.ts',
});
