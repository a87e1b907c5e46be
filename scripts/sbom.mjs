// The software bill of materials of what the portal ships (issue 18): npm's CycloneDX SBOM of the production
// dependencies (dev tools left out), written beside the server's build as apps/server/dist/sbom.cdx.json.
// npm builds it from the lockfile and node_modules, offline; `npm run build` runs this last.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const out = join(root, 'apps/server/dist/sbom.cdx.json');
const text = execFileSync(
  'npm',
  ['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application', '--omit', 'dev', '--offline'],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
const sbom = JSON.parse(text);
if (sbom.bomFormat !== 'CycloneDX' || !Array.isArray(sbom.components) || sbom.components.length === 0)
  throw new Error('npm sbom did not give a CycloneDX document with components');
mkdirSync(join(root, 'apps/server/dist'), { recursive: true });
writeFileSync(out, `${JSON.stringify(sbom, null, 2)}\n`);
console.log(`SBOM: ${sbom.components.length} components (CycloneDX ${sbom.specVersion}) in ${out}`);
