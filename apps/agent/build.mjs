// Bundles the agent (with the domain package from source) into one executable file.
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/agent.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  plugins: [
    {
      name: 'bundle-domain',
      setup(b) {
        b.onResolve({ filter: /^@portal\/domain$/ }, () => ({
          path: new URL('../../packages/domain/src/index.ts', import.meta.url).pathname,
        }));
      },
    },
  ],
  banner: { js: '#!/usr/bin/env node' },
});
chmodSync('dist/agent.mjs', 0o755);
console.log('agent built: apps/agent/dist/agent.mjs');
