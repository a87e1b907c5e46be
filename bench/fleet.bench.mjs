// The fleet benchmark (bench/README.md): 20,000 agent connections on one server process next to a bare
// `ws` server (memory per connection), and the browser → agent → browser command round trip at 1,000
// commands/s with 5,000 agents. Set BENCH_FLEET=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_FLEET',
  name: 'Fleet',
  heading: 'Fleet: agent connections (memory) and command round trip',
  script: 'bench/fleet/run.ts',
});
