// Bundles the server (with the domain package from source) into dist/, next to its migrations.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
const version = JSON.parse(readFileSync('../../package.json', 'utf8')).version ?? '0.1.0';
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // Not a git checkout (e.g. an exported tarball): the commit stays unknown.
}
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  define: {
    'process.env.BUILD_VERSION': JSON.stringify(version),
    'process.env.BUILD_COMMIT': JSON.stringify(commit),
  },
  packages: 'external',
  // The domain package is TypeScript source: bundle it instead of leaving it external.
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
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
cpSync('drizzle', 'dist/drizzle', { recursive: true });
console.log('server built: apps/server/dist/main.js');
