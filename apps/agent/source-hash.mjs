// What the agent's build is made of, as one hash: its sources, the domain's, the installers, the build script,
// the lock file and the pinned Node it embeds. build.mjs writes it beside the build (`source-hash`), so the tests
// can tell whether a build is the one the sources make today (src/built-agent.ts) and build only once.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_RUNTIME } from '../../scripts/node-runtime.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

export function agentSourceHash() {
  const files = [
    ...sources(join(here, 'src')),
    ...sources(join(here, 'install')),
    ...sources(join(root, 'packages/domain/src')),
    join(here, 'build.mjs'),
    join(here, 'package.json'),
    join(root, 'package-lock.json'),
  ].sort();
  const hash = createHash('sha256').update(`${NODE_RUNTIME.version} ${process.platform}-${process.arch}\n`);
  for (const file of files) hash.update(`${relative(root, file)}\n`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 32);
}
