// Any list at any depth (bench/README.md, issue 33 item 6): the first, middle and last page of each deep list of the
// seeded benchmark database, p99 within 100 ms under a few concurrent users. Set BENCH_LISTS=0 to leave it out of
// `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_LISTS',
  name: 'Lists',
  heading: 'Lists: first, middle and last page of every deep list',
  script: 'bench/lists/run.ts',
});
