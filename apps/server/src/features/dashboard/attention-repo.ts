import { ATTENTION_KINDS, type AttentionKind } from '@portal/domain';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { type TenantScope, tenantScopeCondition } from '../verification/scope.js';

/** One listed item with what its link and its text need. */
export interface AttentionRow {
  kind: AttentionKind;
  at: Date;
  customerId: number;
  customerName: string;
  parentResellerCustomerId: number | null;
  packageId: number;
  machineId: number;
  machineName: string;
  assignedUserId: number | null;
  taskId: number | null;
  taskName: string | null;
}

// Every condition below repeats its partial index's predicate (migration 0029) so that the planner uses it, and
// every order its index's (descending, nulls last), so that a kind's newest rows are its index's first ones.
const TASKS = sql`t.display_status in ('LAST_FAILED', 'MISSED')`;
const STALLED = sql`a.status in ('INITIATED', 'IN_PROGRESS') and a.stalled_at is not null`;
const OVER_QUOTA = sql`m.status in ('OVER_PER_MACHINE_QUOTA', 'PACKAGE_OVER_QUOTA') and not m.being_deleted`;
const OFFLINE = sql`not m.online and m.last_seen_at is not null and not m.being_deleted`;
const VERIFICATION = sql`t.verification_status in ('FAILED', 'OVERDUE')`;

const MACHINE_COLUMNS = sql`m.customer_id, c.display_name as customer_name, c.parent_reseller_customer_id,
  m.backup_package_id as package_id, m.id as machine_id, m.name as machine_name, m.assigned_user_id`;

interface RawRow {
  kind: AttentionKind;
  at: Date | string;
  customer_id: number;
  customer_name: string;
  parent_reseller_customer_id: number | null;
  package_id: number;
  machine_id: number;
  machine_name: string;
  assigned_user_id: number | null;
  task_id: number | null;
  task_name: string | null;
}

const nullableId = (id: number | string | null) => (id === null ? null : Number(id));

/**
 * The reads of 'Needs attention' (issue 31). Each kind is read newest first from its partial index, at most
 * `limit` rows, and the kinds merged; the counts read the same indexes, so both cost the items, not the machines.
 */
export function createAttentionReads(db: Executor) {
  return {
    async attentionItems(scope: TenantScope, limit: number): Promise<AttentionRow[]> {
      const taskScope = tenantScopeCondition(scope, sql`t.customer_id`, 'm');
      const machineScope = tenantScopeCondition(scope, sql`m.customer_id`, 'm');
      const rows = rowsOf<RawRow>(
        await db.execute(sql`
          (select case t.display_status when 'MISSED' then 'TASK_MISSED' else 'TASK_FAILED' end as kind,
                  t.display_status_since as at, ${MACHINE_COLUMNS}, t.id as task_id, t.name as task_name
             from backup_tasks t join backup_machines m on m.id = t.backup_machine_id
             join customers c on c.id = m.customer_id
            where ${TASKS} and ${taskScope}
            order by t.display_status_since desc nulls last, t.id desc nulls last limit ${limit})
          union all
          (select 'RUN_STALLED', a.stalled_at, ${MACHINE_COLUMNS}, t.id, t.name
             from task_actions a join backup_tasks t on t.id = a.backup_task_id
             join backup_machines m on m.id = a.backup_machine_id join customers c on c.id = m.customer_id
            where ${STALLED} and ${machineScope}
            order by a.stalled_at desc nulls last, a.id desc nulls last limit ${limit})
          union all
          (select 'OVER_QUOTA', m.status_since, ${MACHINE_COLUMNS}, null, null
             from backup_machines m join customers c on c.id = m.customer_id
            where ${OVER_QUOTA} and ${machineScope}
            order by m.status_since desc nulls last, m.id desc nulls last limit ${limit})
          union all
          (select case t.verification_status when 'FAILED' then 'VERIFICATION_FAILED' else 'VERIFICATION_OVERDUE' end,
                  t.verification_status_since, ${MACHINE_COLUMNS}, t.id, t.name
             from backup_tasks t join backup_machines m on m.id = t.backup_machine_id
             join customers c on c.id = m.customer_id
            where ${VERIFICATION} and ${taskScope}
            order by t.verification_status_since desc nulls last, t.id desc nulls last limit ${limit})
          union all
          (select 'MACHINE_OFFLINE', m.last_seen_at, ${MACHINE_COLUMNS}, null, null
             from backup_machines m join customers c on c.id = m.customer_id
            where ${OFFLINE} and ${machineScope}
            order by m.last_seen_at desc nulls last, m.id desc nulls last limit ${limit})
          order by at desc, machine_id desc, task_id desc nulls last
          limit ${limit}`),
      );
      return rows.map((row) => ({
        kind: row.kind,
        at: new Date(row.at),
        customerId: Number(row.customer_id),
        customerName: row.customer_name,
        parentResellerCustomerId: nullableId(row.parent_reseller_customer_id),
        packageId: Number(row.package_id),
        machineId: Number(row.machine_id),
        machineName: row.machine_name,
        assignedUserId: nullableId(row.assigned_user_id),
        taskId: nullableId(row.task_id),
        taskName: row.task_name,
      }));
    },

    /** Every item of the scope per kind, and whether the scope has any machine at all. */
    async attentionCounts(scope: TenantScope) {
      const taskScope = tenantScopeCondition(scope, sql`t.customer_id`, 'm');
      const machineScope = tenantScopeCondition(scope, sql`m.customer_id`, 'm');
      // A customer user's tasks need their machine for the assigned user; everyone else's need none.
      const taskFrom =
        scope.kind === 'customers' && scope.assignedUserId !== null
          ? sql`backup_tasks t join backup_machines m on m.id = t.backup_machine_id`
          : sql`backup_tasks t`;
      // The status is a literal, not a parameter, so that the planner sees it within the partial index.
      const tasks = (status: 'LAST_FAILED' | 'MISSED') =>
        sql`(select count(*) from ${taskFrom} where ${TASKS} and t.display_status = ${sql.raw(`'${status}'`)} and ${taskScope})`;
      const verifications = (status: 'FAILED' | 'OVERDUE') =>
        sql`(select count(*) from ${taskFrom} where ${VERIFICATION} and t.verification_status = ${sql.raw(`'${status}'`)} and ${taskScope})`;
      const machines = (condition: SQL) =>
        sql`(select count(*) from backup_machines m where ${condition} and ${machineScope})`;
      const [row] = rowsOf<Record<AttentionKind, number | string> & { has_machines: boolean }>(
        await db.execute(sql`
          select ${tasks('LAST_FAILED')} as "TASK_FAILED", ${tasks('MISSED')} as "TASK_MISSED",
                 (select count(*) from task_actions a join backup_machines m on m.id = a.backup_machine_id
                   where ${STALLED} and ${machineScope}) as "RUN_STALLED",
                 ${machines(OVER_QUOTA)} as "OVER_QUOTA", ${machines(OFFLINE)} as "MACHINE_OFFLINE",
                 ${verifications('FAILED')} as "VERIFICATION_FAILED",
                 ${verifications('OVERDUE')} as "VERIFICATION_OVERDUE",
                 exists (select 1 from backup_machines m where ${machineScope}) as has_machines`),
      );
      const counts = Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, Number(row?.[kind] ?? 0)])) as Record<
        AttentionKind,
        number
      >;
      return { counts, hasMachines: Boolean(row?.has_machines) };
    },
  };
}
