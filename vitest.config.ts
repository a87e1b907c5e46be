import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One worker per core, not vitest's cores − 1: most test files wait on databases, restic and browsers, and
    // on CI's 2-core machine the default left every file in line behind one worker.
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
          // Property tests run 100 generated cases under coverage: on a loaded 2-core machine one took over 5 s.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          // Test files share their worker's modules: each file still builds its own app, database and servers, and
          // importing the whole server once per worker instead of once per file saves most of the import time.
          isolate: false,
          // Chooses where Ceph RGW would run; only test files that ask for it start it (testing/rgw.ts).
          globalSetup: ['apps/server/src/testing/rgw-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'agent',
          include: ['apps/agent/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          testTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
      {
        // The benchmarks' own helpers (bench/answers.ts: a benchmark fails on an error answer).
        test: { name: 'bench', include: ['bench/**/*.test.ts'], environment: 'node' },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/domain/src/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text-summary'],
      // The domain package holds every rule; npm test fails when its line coverage drops below 95 %.
      thresholds: { lines: 95 },
    },
  },
});
