// The missed-run benchmark (bench/README.md): N tasks of the 1,000,000-task data set overdue, marked by two server
// instances running the job at once; lag, statements, idle CPU, none marked twice, beside a bare UPDATE. It writes,
// so it seeds a database of its own (BENCH_MISSED_DATABASE_URL). Set BENCH_MISSED=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_MISSED',
  name: 'Missed runs',
  heading: 'Missed-run detection: overdue tasks of 1,000,000, two instances',
  script: 'bench/missed-runs/run.ts',
});
