import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINUTE_MS } from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { backupMachines, backupPackages, backupTasks, users } from '../db/schema/index.js';
import { createBackupStateService } from '../features/backup-state/service.js';
import { createMachineCredentials } from '../features/machine-auth/credentials.js';

/** The live demo task of each demo agent: every five minutes, so a newcomer soon sees runs. */
export const DEMO_AGENT_TASK = { name: 'Demo sample files', cron: '*/5 * * * *' } as const;
const DEMO_AGENT_USER = 'user@demo.test';

/** A sample folder that changes a little on every call, so each backup has something new. */
function refreshSampleFiles(folder: string, round: number): void {
  mkdirSync(join(folder, 'Documents'), { recursive: true });
  mkdirSync(join(folder, 'Photos'), { recursive: true });
  writeFileSync(join(folder, 'Documents', 'notes.txt'), `Meeting notes, revision ${round}\n`.repeat(200));
  writeFileSync(join(folder, 'Documents', `report-${round % 5}.txt`), `Quarterly report ${round}\n`.repeat(2000));
  writeFileSync(join(folder, 'Photos', `photo-${round % 3}.raw`), Buffer.alloc(256 * 1024, round % 251));
}

/**
 * `npm start`'s live agents (DESIGN §10): the machines of the demo customer user get a real agent each,
 * started from the agent bundle with its own config (a fresh credential, 0600), backing up a generated
 * sample folder under DATA_DIR with real restic to the embedded storage every five minutes.
 * Returns a stop function. Skipped (with a note) when restic or the agent bundle is missing.
 */
export async function startDemoAgents(deps: {
  db: Db;
  dataDir: string;
  serverUrl: string;
  agentBundle: string;
  logger: FastifyBaseLogger;
}): Promise<() => void> {
  if (spawnSync('restic', ['version'], { stdio: 'ignore' }).status !== 0) {
    deps.logger.warn('restic is not installed: the demo agents do not start (apt-get install restic)');
    return () => {};
  }
  if (!existsSync(deps.agentBundle)) {
    deps.logger.warn({ agentBundle: deps.agentBundle }, 'agent bundle missing: the demo agents do not start');
    return () => {};
  }
  const machines = await deps.db
    .select({ id: backupMachines.id, name: backupMachines.name })
    .from(backupMachines)
    .innerJoin(users, eq(users.id, backupMachines.assignedUserId))
    .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
    .where(
      and(eq(users.email, DEMO_AGENT_USER), eq(backupMachines.status, 'ACTIVE'), eq(backupPackages.status, 'ACTIVE')),
    )
    .orderBy(backupMachines.id)
    .limit(2);

  const credentials = createMachineCredentials(deps.db);
  const backupState = createBackupStateService({ db: deps.db });
  const children: ChildProcess[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (const machine of machines) {
    const home = join(deps.dataDir, 'demo-agents', String(machine.id));
    const samples = join(home, 'sample-files');
    let round = 0;
    refreshSampleFiles(samples, round);
    const refresher = setInterval(() => refreshSampleFiles(samples, ++round), 4 * MINUTE_MS);
    refresher.unref();
    timers.push(refresher);

    const [existing] = await deps.db
      .select({ id: backupTasks.id })
      .from(backupTasks)
      .where(and(eq(backupTasks.backupMachineId, machine.id), eq(backupTasks.name, DEMO_AGENT_TASK.name)));
    if (!existing) {
      await backupState.createTask({
        backupMachineId: machine.id,
        name: DEMO_AGENT_TASK.name,
        scheduleCron: DEMO_AGENT_TASK.cron,
        scheduleDescription: 'Every 5 minutes',
        backupItems: [{ path: samples, name: 'sample-files', type: 'DIRECTORY', missing: false }],
        numberOfSnapshotsToKeep: 4,
      });
    }

    const credential = await credentials.issue(machine.id);
    if (!credential) continue;
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const configFile = join(home, 'config.json');
    const config = {
      server: deps.serverUrl,
      machineId: machine.id,
      token: credential.token,
      stateDir: join(home, 'state'),
      name: machine.name,
    };
    writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
    chmodSync(configFile, 0o600);
    const child = spawn(process.execPath, [deps.agentBundle, 'run', '--config', configFile], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) =>
      deps.logger.debug({ machineId: machine.id, agent: chunk.toString().trim() }, 'demo agent'),
    );
    child.on('exit', (code) => deps.logger.info({ machineId: machine.id, code }, 'demo agent stopped'));
    children.push(child);
    deps.logger.info({ machineId: machine.id, machineName: machine.name }, 'demo agent started');
  }
  return () => {
    for (const timer of timers) clearInterval(timer);
    for (const child of children) child.kill('SIGTERM');
  };
}
