// npm start: install what is missing, build, then run the portal in demo mode (migrates and seeds
// a new database, prints the URL and the demo logins). Production start: see README.
import { ensureDependencies, hasCommand, mustRun, root, run } from './lib.mjs';
import { onPinnedNode } from './node-runtime.mjs';

await onPinnedNode();
await ensureDependencies();
if (!hasCommand('restic')) {
  console.warn('Note: restic is not installed (apt-get install restic); backups need it.');
}
await mustRun('build', 'npm', ['run', 'build']);
const env = { ...process.env, DEMO: process.env.DEMO ?? 'true' };
process.exit(await run('node', ['apps/server/dist/main.js'], { cwd: root, env }));
