import { DAY_MS, HOUR_MS, type MessageType, MINUTE_MS, SECOND_MS } from '@portal/domain';
import { backupSnapshots, machineMessages, taskActions } from '../db/schema/index.js';
import { inChunks, type SeedContext, zip } from './context.js';
import { MB, type Recipe } from './data.js';
import { bytesAdded, demoRunSummary, type Run, restoreRun, runOutcome, seedCreationRun } from './history.js';
import {
  type MachineSpec,
  type SavedMachine,
  type SavedTask,
  seedPath,
  snapshotsOn,
  type TaskSpec,
} from './machines.js';
import type { Random } from './random.js';

const formatBytes = (bytes: number) => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
};

/** An action to store: one run of a task with the sizes it moved. */
interface ActionEntry {
  taskId: number;
  machineId: number;
  task: TaskSpec;
  machine: MachineSpec;
  run: Run;
  bytesTotal: number;
  /** The task's first action: it added everything it processed. */
  first: boolean;
}

/** What the log says about a task that is being deleted, failed to be deleted or is paused, and when. */
const RECIPE_NOTES: Partial<
  Record<Recipe, { ago: (rng: Random) => number; type: MessageType; text: (task: string) => string }>
> = {
  deletionFailed: {
    ago: (rng) => rng.int(2, 10) * HOUR_MS,
    type: 'ERROR',
    text: (task) => `Deleting the backup data of task '${task}' failed: storage answered 503 Service Unavailable.`,
  },
  beingDeleted: {
    ago: (rng) => rng.int(5, 40) * MINUTE_MS,
    type: 'INFO',
    text: (task) => `Deletion of task '${task}' and its backup data started.`,
  },
  paused: {
    ago: (rng) => rng.int(1, 5) * DAY_MS,
    type: 'INFO',
    text: (task) => `Task '${task}' paused; scheduled runs are skipped until it is resumed.`,
  },
};

/**
 * What the tasks did: their actions (the backup runs plus a few restores and seed creations), the
 * snapshots those runs left and the machines' message logs. Returns how many actions it stored.
 */
export async function insertActivity(
  ctx: SeedContext,
  machines: readonly SavedMachine[],
  tasks: readonly SavedTask[],
): Promise<number> {
  const rng = ctx.rng;
  const now = ctx.now.getTime();
  const actions: ActionEntry[] = [];
  for (const { machine, task, id } of tasks) {
    const share = Math.max(50 * MB, Math.floor(machine.usedSpaceBytes / Math.max(1, machine.spec.tasks.length)));
    const entry = (run: Run, bytesTotal: number, first: boolean): ActionEntry => ({
      taskId: id,
      machineId: machine.id,
      task,
      machine: machine.spec,
      run,
      bytesTotal,
      first,
    });
    task.runs.forEach((run, index) => {
      actions.push(entry(run, Math.floor(share * (0.9 + (0.1 * (index + 1)) / task.runs.length)), index === 0));
    });
    if (task.recipe === 'awaitingSeed') actions.push(entry(seedCreationRun(rng, now), share, true));
    const restore = task.type === 'FILES_AND_FOLDERS' ? restoreRun(rng, now, task.runs, 0.12) : null;
    if (restore) actions.push(entry(restore, Math.floor(share / rng.int(5, 40)), false));
  }
  const actionRows = actions.map((a) => actionRow(ctx, a));
  const actionIds = await inChunks(actionRows, (chunk) =>
    ctx.tx.insert(taskActions).values(chunk).returning({ id: taskActions.id }),
  );
  const savedActions = zip(zip(actions, actionRows), actionIds).map(([[entry, row], { id }]) => ({
    ...entry,
    row,
    id,
  }));

  // Snapshot archives: the newest good run of each snapshot task, and some older ones being pruned.
  const snapshots: (typeof backupSnapshots.$inferInsert)[] = [];
  const byTask = new Map<number, typeof savedActions>();
  for (const action of savedActions) {
    if (action.run.type !== 'BACKUP_RUN') continue;
    const list = byTask.get(action.taskId) ?? [];
    list.push(action);
    byTask.set(action.taskId, list);
  }
  for (const [taskId, list] of byTask) {
    const task = list[0]?.task;
    if (!task || !snapshotsOn(task)) continue;
    const good = list.filter((a) => a.row.resticSnapshotId);
    good.forEach((a, index) => {
      const newest = index === good.length - 1;
      if (!newest && index !== 0) return;
      snapshots.push({
        backupTaskId: taskId,
        taskActionId: a.id,
        resticSnapshotId: a.row.resticSnapshotId,
        status: 'FINISHED_SUCCESS',
        storageStatus: newest
          ? 'AVAILABLE'
          : rng.weighted([
              ['DELETED', 3],
              ['BEING_DELETED', 1],
              ['AVAILABLE', 2],
            ] as const),
        sizeBytes: a.bytesTotal,
        createdAt: new Date(a.run.finish ?? a.run.start),
      });
    });
  }
  await inChunks(snapshots, (chunk) =>
    ctx.tx.insert(backupSnapshots).values(chunk).returning({ id: backupSnapshots.id }),
  );

  // The machines' message logs.
  const messages: (typeof machineMessages.$inferInsert)[] = [];
  const say = (
    machineId: number,
    time: number,
    messageType: MessageType,
    message: string,
    taskId: number | null = null,
    taskActionId: number | null = null,
  ) =>
    messages.push({
      backupMachineId: machineId,
      backupTaskId: taskId,
      taskActionId,
      time: new Date(time),
      messageType,
      message,
    });
  for (const m of machines) {
    const connected = m.lastSeenAt.getTime() - rng.int(1, 72) * HOUR_MS;
    say(m.id, connected, 'INFO', `Backup agent ${m.version} connected (${m.spec.os.name}, ${m.spec.timeZone}).`);
  }
  for (const [taskId, list] of byTask) {
    for (const a of list.slice(-2)) runMessages(ctx, say, a.machineId, taskId, a.id, a.task, a.run, a.row);
  }
  for (const t of tasks) {
    const note = RECIPE_NOTES[t.task.recipe];
    if (note) say(t.machine.id, now - note.ago(rng), note.type, note.text(t.task.name), t.id);
  }
  for (const a of savedActions) {
    if (a.run.type === 'BACKUP_SEED_CREATION') {
      say(
        a.machineId,
        a.run.finish ?? a.run.start,
        'INFO',
        `Seed for '${a.task.name}' written to ${seedPath(a.machine.os.family)}; send the disk to load it.`,
        a.taskId,
        a.id,
      );
    }
  }
  await inChunks(messages, (chunk) =>
    ctx.tx.insert(machineMessages).values(chunk).returning({ id: machineMessages.id }),
  );

  return savedActions.length;
}

function actionRow(ctx: SeedContext, action: ActionEntry): typeof taskActions.$inferInsert {
  const { taskId, machineId, task, run, bytesTotal, first } = action;
  const rng = ctx.rng;
  const total = Math.max(1, task.items.length);
  const isRun = run.type === 'BACKUP_RUN';
  const outcome = runOutcome(rng, run.status);
  const done = outcome.done;
  return {
    backupTaskId: taskId,
    backupMachineId: machineId,
    type: run.type,
    status: run.status,
    timeStarted: new Date(run.start),
    timeFinished: run.finish === null ? null : new Date(run.finish),
    transferProgressPercentage: outcome.transferProgressPercentage,
    currentTransfer: done ? total : run.status === 'INITIATED' ? 0 : rng.int(1, total),
    totalTransfers: total,
    phase: outcome.phase,
    failureMessage: outcome.failureMessage,
    exitCodeResult: outcome.exitCodeResult,
    resticSnapshotId: isRun && done ? rng.hex(64) : null,
    ...finishedFigures(rng, run, done, first, bytesTotal),
    snapshotsAvailable: isRun && done && snapshotsOn(task),
  };
}

/** A finished run's bytes and, for a backup, the run report's summary (issue 31), in proportion to what it added. */
function finishedFigures(rng: Random, run: Run, done: boolean, first: boolean, bytesTotal: number) {
  if (!done) return { bytesAdded: null, bytesTotal: null };
  const added = bytesAdded(rng, first, bytesTotal);
  if (run.type !== 'BACKUP_RUN' || run.finish === null) return { bytesAdded: added, bytesTotal };
  return { bytesAdded: added, bytesTotal, summary: demoRunSummary(bytesTotal, added, run.finish - run.start) };
}

function runMessages(
  ctx: SeedContext,
  say: (
    machineId: number,
    time: number,
    type: MessageType,
    message: string,
    taskId: number | null,
    actionId: number | null,
  ) => void,
  machineId: number,
  taskId: number,
  actionId: number,
  task: TaskSpec,
  run: Run,
  row: typeof taskActions.$inferInsert,
): void {
  const rng = ctx.rng;
  say(machineId, run.start, 'INFO', `Backup of '${task.name}' started.`, taskId, actionId);
  if (rng.chance(0.3)) {
    const paths = task.items.map((i) => `"${i.path}"`).join(' ');
    say(
      machineId,
      run.start + SECOND_MS,
      'DEBUG',
      `restic backup --json --tag task-${taskId} ${paths}`,
      taskId,
      actionId,
    );
  }
  const end = run.finish ?? run.start;
  const files = rng.int(120, 48_000).toLocaleString('en-GB');
  if (run.status === 'FINISHED_SUCCESS' || run.status === 'FINISHED_WARNINGS') {
    if (run.status === 'FINISHED_WARNINGS') {
      const item = task.items[0];
      const locked = rng.pick(['~$Budget 2025.xlsx', 'Outlook.ost', 'NTUSER.DAT', '.lock']);
      say(
        machineId,
        end,
        'WARNING',
        `Could not read '${item?.path ?? ''}${item?.path.includes('\\') ? '\\' : '/'}${locked}': access denied; the file was skipped.`,
        taskId,
        actionId,
      );
    }
    say(
      machineId,
      end,
      'INFO',
      `Backup of '${task.name}' finished${run.status === 'FINISHED_WARNINGS' ? ' with warnings' : ''}: ${files} files, ${formatBytes(row.bytesTotal ?? 0)} processed, ${formatBytes(row.bytesAdded ?? 0)} added (snapshot ${String(row.resticSnapshotId).slice(0, 8)}).`,
      taskId,
      actionId,
    );
  } else if (run.status === 'FAILED') {
    say(
      machineId,
      end,
      'ERROR',
      `Backup of '${task.name}' failed: ${row.failureMessage ?? 'unknown error'}`,
      taskId,
      actionId,
    );
  }
}
