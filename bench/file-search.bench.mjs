// File search at scale (bench/README.md): the time to a search's first results in a repository of 1,000,000 files,
// through the agent's search. Set BENCH_FILE_SEARCH=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_FILE_SEARCH',
  name: 'File search',
  heading: 'File search: first results in 1,000,000 files',
  script: 'bench/file-search/first-results.ts',
});
