import type { ActionType, AgentTask, OsFamily, RunStatus, StorageAccountType } from '@portal/domain';
import { and, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { joinMachineOwners } from '../../db/machine-statuses.js';
import { backupMachines, backupPackages, backupTasks, storageAccounts, taskActions } from '../../db/schema/index.js';
import { selectPackagesWithStorage } from '../../db/storage-joins.js';
import type { RepositoryFacts } from '../local-storage/repository-settings.js';
import { agentTaskFields, toAgentTask } from './agent-tasks.js';

/** A run still going: started, not finished. */
export const BUSY: RunStatus[] = ['INITIATED', 'IN_PROGRESS'];

/** What a hello says of its machine. */
export interface HelloReport {
  machineId: number;
  osFamily: OsFamily;
  operatingSystem: string;
  desktopClientVersion: string;
  /** Null: the stored one stays (the agent's is not a time zone the portal knows). */
  timeZone: string | null;
}

export interface BusyRun {
  id: number;
  taskId: number;
  runKey: string;
  type: ActionType;
}

/** Everything a hello is answered from, read in the statement that writes what it says. */
export interface HelloFacts {
  timeZone: string;
  busyRuns: BusyRun[];
  tasks: AgentTask[];
  /** What the repository settings sent after the hello are made of. */
  repository: RepositoryFacts;
}

/** `json_build_object` of drizzle fields: the row as JSON under the fields' names. */
const jsonObject = (fields: Record<string, SQL | { getSQL(): SQL }>) =>
  sql`json_build_object(${sql.join(
    Object.entries(fields).map(([name, value]) => sql`${name}::text, ${value}`),
    sql`, `,
  )})`;

/** The machine of the hello being answered, in the statement below. */
const helloMachine = sql`v.id`;

/**
 * The hellos of reconnecting agents (issue 33: one statement per connect, or less): what each says of its machine is
 * written, only when it differs from what is stored, and everything its answer needs is read — the time zone, the
 * busy runs it must account for, its task list (as agent-events' tasksOf reads it) and what its repository settings
 * are made of — in one statement for many machines.
 */
export function createHelloRepo(db: Executor) {
  const tasks = joinMachineOwners(
    db
      .select({
        tasks: sql`coalesce(json_agg(${jsonObject(agentTaskFields)} order by ${backupTasks.id}), '[]'::json)`,
      })
      .from(backupTasks)
      .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
      .$dynamic(),
  ).where(eq(backupTasks.backupMachineId, helloMachine));
  const run = {
    id: taskActions.id,
    taskId: taskActions.backupTaskId,
    runKey: taskActions.runKey,
    type: taskActions.type,
  };
  const busyRuns = db
    .select({ runs: sql`coalesce(json_agg(${jsonObject(run)} order by ${taskActions.id}), '[]'::json)` })
    .from(taskActions)
    .where(
      and(
        eq(taskActions.backupMachineId, helloMachine),
        inArray(taskActions.status, BUSY),
        isNotNull(taskActions.runKey),
      ),
    );
  const storageAccountType = selectPackagesWithStorage(db, { type: storageAccounts.type }).where(
    eq(backupPackages.id, backupMachines.backupPackageId),
  );

  return {
    /** Each machine's facts after its hello; a machine that is gone is missing. At most one hello a machine. */
    async answer(reports: readonly HelloReport[]): Promise<Map<number, HelloFacts>> {
      if (reports.length === 0) return new Map();
      const values = sql.join(
        reports.map(
          (r) =>
            sql`(${r.machineId}::integer, ${r.osFamily}::text, ${r.operatingSystem}::text, ${r.desktopClientVersion}::text, ${r.timeZone}::text)`,
        ),
        sql`, `,
      );
      // The update's CTE and the select see the same snapshot: the select reads the time zone written from `updated`.
      const rows = rowsOf<{
        id: number;
        time_zone: string;
        password_sealed: string | null;
        storage_account_type: StorageAccountType | null;
        busy_runs: BusyRun[] | string;
        tasks: Parameters<typeof toAgentTask>[0][] | string;
      }>(
        await db.execute(sql`
          with v(id, os_family, operating_system, client_version, time_zone) as (values ${values}),
          updated as (
            update ${backupMachines}
               set os_family = v.os_family::os_family, operating_system = v.operating_system,
                   desktop_client_version = v.client_version,
                   time_zone = coalesce(v.time_zone, ${backupMachines.timeZone})
              from v
             where ${backupMachines.id} = v.id
               and (${backupMachines.osFamily}::text, ${backupMachines.operatingSystem},
                    ${backupMachines.desktopClientVersion}, ${backupMachines.timeZone})
                   is distinct from
                   (v.os_family, v.operating_system, v.client_version, coalesce(v.time_zone, ${backupMachines.timeZone}))
            returning ${backupMachines.id} as id, ${backupMachines.timeZone} as time_zone)
          select ${backupMachines.id} as id,
                 coalesce(updated.time_zone, ${backupMachines.timeZone}) as time_zone,
                 ${backupMachines.repositoryPasswordEncrypted} as password_sealed,
                 (${storageAccountType}) as storage_account_type,
                 (${busyRuns}) as busy_runs,
                 (${tasks}) as tasks
            from v
            join ${backupMachines} on ${backupMachines.id} = v.id
            left join updated on updated.id = v.id`),
      );
      // json arrives parsed from node-postgres, as text from some drivers.
      const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
      return new Map(
        rows.map((row) => [
          Number(row.id),
          {
            timeZone: row.time_zone,
            busyRuns: json(row.busy_runs),
            tasks: json(row.tasks).map(toAgentTask),
            repository: { passwordSealed: row.password_sealed, storageAccountType: row.storage_account_type },
          },
        ]),
      );
    },
  };
}

export type HelloRepo = ReturnType<typeof createHelloRepo>;
