// The ingest benchmark (bench/README.md): agents reporting runs (start, progress, messages, end) at 5,000 events/s
// against a bare receipt server and the portal on PostgreSQL. Set BENCH_INGEST=0 to leave it out of `npm run bench`.
import { scriptBenchmark } from './suite.mjs';

await scriptBenchmark({
  skipVariable: 'BENCH_INGEST',
  name: 'Ingest',
  heading: 'Ingest: agent events stored per second',
  script: 'bench/ingest/run.ts',
});
