// The agent overhead benchmark (bench/README.md): the agent's restic engine against bare restic on the
// same 10,000 files / 1 GB. Set BENCH_AGENT=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_AGENT',
  name: 'Agent overhead',
  heading: 'Agent overhead: agent engine against bare restic',
  script: 'bench/agent/overhead.ts',
});
