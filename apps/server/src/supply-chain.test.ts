import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// CI's supply-chain check (scripts/check-supply.mjs) on a copy of the project's manifests and lockfile.
const root = join(import.meta.dirname, '../../..');
const WORKSPACES: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
let copy = '';
afterEach(() => rmSync(copy, { recursive: true, force: true }));

function copyManifests(): string {
  copy = mkdtempSync(join(tmpdir(), 'portal-supply-'));
  for (const file of ['package.json', 'package-lock.json', ...WORKSPACES.map((ws) => `${ws}/package.json`)])
    cpSync(join(root, file), join(copy, file));
  return copy;
}
interface Json {
  dependencies?: Record<string, string>;
  packages?: Record<string, { dependencies?: Record<string, string>; version?: string; hasInstallScript?: boolean }>;
}
function edit(file: string, change: (json: Json) => void) {
  const path = join(copy, file);
  const json = JSON.parse(readFileSync(path, 'utf8'));
  change(json);
  writeFileSync(path, JSON.stringify(json));
}
const check = () => spawnSync('node', [join(root, 'scripts/check-supply.mjs'), copy], { encoding: 'utf8' });

/** Runs the check on the copy: it fails, naming what it found. */
function expectFailure(finding: string) {
  const result = check();
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(finding);
}

describe('the supply-chain check', () => {
  it('passes on the project as committed', () => {
    copyManifests();
    const result = check();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fails on a version range, even one the lockfile agrees with', () => {
    copyManifests();
    edit('apps/server/package.json', (json) => {
      json.dependencies = { ...json.dependencies, pino: '^10.4.0' };
    });
    edit('package-lock.json', (json) => {
      const server = json.packages?.['apps/server'];
      if (server) server.dependencies = { ...server.dependencies, pino: '^10.4.0' };
    });
    expectFailure('dependencies.pino is the range ^10.4.0; pin the exact version');
  });

  it('fails when the lockfile does not match the package.json files', () => {
    copyManifests();
    edit('apps/server/package.json', (json) => {
      json.dependencies = { ...json.dependencies, pino: '10.4.1' };
    });
    expectFailure('dependencies.pino is 10.4.1 but package-lock.json has 10.4.0');
  });

  it('fails on a dependency with an install script that allowScripts does not review', () => {
    copyManifests();
    edit('package-lock.json', (json) => {
      const packages = json.packages ?? {};
      packages['node_modules/left-pad-installer'] = { version: '1.0.0', hasInstallScript: true };
    });
    expectFailure('left-pad-installer@1.0.0 has an install script');
  });
});
