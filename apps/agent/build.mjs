// Builds the agent three ways (README "Builds"):
// - dist/agent.mjs: ESM with its npm packages external, run from this repository (demo agents, journeys);
// - dist/portal-agent.cjs: one CommonJS file with everything in it, the download for any machine with Node 20;
// - dist/portal-agent-linux-x64: that file inside a copy of the project's pinned Node 24 (a single executable
//   application), the download for Linux x64 machines without Node. Only built on Linux x64;
// - dist/install.sh, dist/install.ps1: the installers, templates the portal fills in when it serves them.
// `node build.mjs [OUT_DIR]` builds into another folder (the tests do, leaving dist/ alone).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensureNodeRuntime } from '../../scripts/node-runtime.mjs';
import { agentSourceHash } from './source-hash.mjs';

const started = Date.now();
const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, 'dist'));
const domainFromSource = {
  name: 'bundle-domain',
  setup(b) {
    b.onResolve({ filter: /^@portal\/domain$/ }, () => ({
      path: new URL('../../packages/domain/src/index.ts', import.meta.url).pathname,
    }));
  },
};
const common = {
  entryPoints: [join(here, 'src/main.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  plugins: [domainFromSource],
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({ ...common, outfile: join(out, 'agent.mjs'), format: 'esm', packages: 'external' });
chmodSync(join(out, 'agent.mjs'), 0o755);
const bundle = join(out, 'portal-agent.cjs');
// ws would try to load its optional native speed-ups from disk (a single executable can't): it goes without.
await build({
  ...common,
  outfile: bundle,
  format: 'cjs',
  minify: true,
  external: ['bufferutil', 'utf-8-validate'],
  define: { 'process.env.WS_NO_BUFFER_UTIL': '"1"', 'process.env.WS_NO_UTF_8_VALIDATE': '"1"' },
});
chmodSync(bundle, 0o755);
for (const installer of ['install.sh', 'install.ps1'])
  copyFileSync(join(here, 'install', installer), join(out, installer));

if (process.platform === 'linux' && process.arch === 'x64') {
  // A single executable application: a blob of the CommonJS bundle injected into a copy of the project's pinned
  // Node (24 LTS, scripts/node-runtime.mjs), whichever node runs this build; the same node makes the blob.
  const node = join(ensureNodeRuntime(), 'node');
  const seaConfig = join(out, 'sea-config.json');
  const blob = join(out, 'sea-prep.blob');
  writeFileSync(seaConfig, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }));
  execFileSync(node, ['--experimental-sea-config', seaConfig], { stdio: 'ignore' });
  const executable = join(out, 'portal-agent-linux-x64');
  copyFileSync(node, executable);
  chmodSync(executable, 0o755);
  const { inject } = await import('postject');
  await inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
  rmSync(blob);
  rmSync(seaConfig);
} else {
  console.log(`agent: no single executable on ${process.platform}-${process.arch} (built on Linux x64 only)`);
}
// Last: a build stopped half-way has no hash, so the tests never take it for a finished one.
writeFileSync(join(out, 'source-hash'), agentSourceHash());
console.log(`agent built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${out}`);
