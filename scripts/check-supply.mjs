// The supply-chain rules CI holds the project to (issue 18), read from the files alone (no registry needed):
// 1. every dependency of every workspace is an exact version, no range: a fresh install gets what was tested;
// 2. the lockfile agrees with the package.json files (the specs it records and the versions it installs), so
//    `npm ci` installs exactly what the package.json files name;
// 3. every package the lockfile marks as having an install script is reviewed in the root package.json's
//    allowScripts (true: may run it, false: may not), so a new dependency cannot run code at install unnoticed
//    (`.npmrc`'s strict-allow-scripts makes npm itself refuse such an install too).
// Prints each problem and exits 1 when there is one. `node scripts/check-supply.mjs [dir]` checks another copy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const base = process.argv[2] ?? root;
const read = (path) => JSON.parse(readFileSync(join(base, path), 'utf8'));

export function supplyProblems(rootManifest, lock, readManifest) {
  const problems = [];
  const workspaces = ['', ...(rootManifest.workspaces ?? [])];
  const local = new Map(workspaces.slice(1).map((ws) => [readManifest(ws).name, readManifest(ws).version]));
  for (const ws of workspaces) {
    const manifest = ws === '' ? rootManifest : readManifest(ws);
    const where = ws === '' ? 'package.json' : `${ws}/package.json`;
    const locked = lock.packages?.[ws];
    if (!locked) {
      problems.push(`${where}: the workspace is not in package-lock.json (run npm install)`);
      continue;
    }
    for (const section of SECTIONS) {
      const specs = manifest[section] ?? {};
      const lockedSpecs = locked[section] ?? {};
      for (const name of new Set([...Object.keys(specs), ...Object.keys(lockedSpecs)])) {
        const spec = specs[name];
        if (spec === undefined || lockedSpecs[name] !== spec) {
          problems.push(
            `${where}: ${section}.${name} is ${spec ?? 'absent'} but package-lock.json has ${lockedSpecs[name] ?? 'nothing'} (run npm install)`,
          );
          continue;
        }
        if (section === 'peerDependencies') continue;
        if (local.has(name)) {
          if (spec !== local.get(name))
            problems.push(`${where}: ${name} must be the workspace's version ${local.get(name)}`);
          continue;
        }
        if (!EXACT.test(spec)) {
          problems.push(`${where}: ${section}.${name} is the range ${spec}; pin the exact version`);
          continue;
        }
        // The copy node resolves for this workspace: its own node_modules first, then the root's.
        const installed =
          lock.packages[`${ws === '' ? '' : `${ws}/`}node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
        if (installed?.version !== spec)
          problems.push(
            `${where}: ${name} is pinned to ${spec} but package-lock.json installs ${installed?.version ?? 'nothing'}`,
          );
      }
    }
  }
  const policy = rootManifest.allowScripts ?? {};
  const reviewed = (name, version) =>
    Object.keys(policy).some((key) => {
      const at = key.lastIndexOf('@');
      if (at <= 0) return key === name;
      return (
        key.slice(0, at) === name &&
        key
          .slice(at + 1)
          .split('||')
          .map((v) => v.trim())
          .includes(version)
      );
    });
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!entry.hasInstallScript || !path.includes('node_modules/')) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!reviewed(name, entry.version))
      problems.push(
        `${name}@${entry.version} has an install script that allowScripts in package.json does not review: ` +
          'read it, then `npm approve-scripts` or `npm deny-scripts` it',
      );
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = supplyProblems(read('package.json'), read('package-lock.json'), (ws) => read(`${ws}/package.json`));
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log('supply chain: every dependency pinned and locked, every install script reviewed');
}
