/**
 * Keyset paging of the provider's task dashboards (issue 33 item 6): every page reached by the cursor holds the rows
 * the offset would give at that depth, over a set with ties in the sort key (and microseconds the browser's dates
 * drop); bad cursors and too deep page numbers answer 400 on their field.
 */
import {
  CURSOR_MESSAGES,
  type CursorPaged,
  encodeCursor,
  LIST_COUNT_LIMIT,
  ROUTES,
  type TaskOverviewRow,
  withQuery,
} from '@portal/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { backupTasks, taskActions } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { createTenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { addCustomer, signedIn } from '../customers/testing.js';

const R = ROUTES.taskOverview;
type ListName = 'running' | 'nextPeriod' | 'beingDeleted';
/** What a row is in each list: a running list's row is the busy action (a task may have two). */
const rowId = (name: ListName, row: TaskOverviewRow) => (name === 'running' ? row.inProgressActionId : row.id);

let t: TestApp;
let provider: TestClient;

async function get(url: string) {
  return provider.json('GET', url);
}

async function pageOf(url: string): Promise<CursorPaged<TaskOverviewRow>> {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

/** Every row of a list, walked page after page by nextCursor. */
async function walkByCursor(name: ListName, size: number): Promise<Array<number | null>> {
  const seen: Array<number | null> = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 500; guard++) {
    const result: CursorPaged<TaskOverviewRow> = await pageOf(
      withQuery(R[name].build(), { size, ...(cursor ? { cursor } : {}) }),
    );
    expect(result.elements.length).toBeLessThanOrEqual(size);
    seen.push(...result.elements.map((row) => rowId(name, row)));
    cursor = result.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('the cursor never ended');
}

/** Every row of a list by page numbers (the offset). */
async function walkByPage(name: ListName, size: number): Promise<Array<number | null>> {
  const first = await pageOf(withQuery(R[name].build(), { size, page: 0 }));
  const seen = first.elements.map((row) => rowId(name, row));
  for (let page = 1; page < first.totalPages; page++) {
    seen.push(...(await pageOf(withQuery(R[name].build(), { size, page }))).elements.map((row) => rowId(name, row)));
  }
  return seen;
}

/** The lists' rows in their order, straight from the tables. */
async function expected(name: ListName): Promise<number[]> {
  const db = t.database.db;
  const query = {
    running: sql`select id from task_actions where status in ('INITIATED', 'IN_PROGRESS') and stalled_at is null
                 order by time_started desc, id desc`,
    nextPeriod: sql`select id from backup_tasks where status = 'ACTIVE' and display_status <> 'NOT_RUNNABLE'
                    and next_run_at >= ${t.clock.now.toISOString()}::timestamptz
                    and next_run_at < ${new Date(t.clock.now.getTime() + 3_600_000).toISOString()}::timestamptz
                    order by next_run_at, id`,
    beingDeleted: sql`select id from backup_tasks where status = 'BEING_DELETED' order by id`,
  }[name];
  return rowsOf<{ id: number }>(await db.execute(query)).map((row) => Number(row.id));
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const tenants = await createTenants(db);
  provider = await signedIn(t.app, tenants.providerAdmin.email);
  const customer = await addCustomer(db, { companyName: 'Keyset Ltd' });
  const fixtures = backupFixtures(db);
  const packageId = await fixtures.package(customer.customerId, { name: 'Keyset package' });
  const machine = await fixtures.machine(packageId, { name: 'Keyset box', osFamily: 'LINUX' });
  const backupState = createBackupStateService({ db, now: () => t.clock.now });
  const ids: number[] = [];
  for (let i = 0; i < 41; i++) {
    const id = await backupState.createTask(fixtures.task(machine, { name: `Keyset task ${i}` }));
    if (id === null) throw new Error('task not created');
    ids.push(id);
  }
  // Next runs in five distinct instants within the hour (so most rows tie with others), one with microseconds;
  // a few out of the hour, paused or being deleted.
  const base = t.clock.now.getTime();
  for (const [i, id] of ids.entries()) {
    const at = new Date(base + (1 + (i % 5) * 7) * 60_000).toISOString().replace('Z', '');
    const microseconds = i % 5 === 3 ? '417' : '';
    await db
      .update(backupTasks)
      .set({ nextRunAt: sql`${`${at}${microseconds}Z`}::timestamptz` })
      .where(eq(backupTasks.id, id));
  }
  for (const id of ids.slice(0, 3)) await backupState.updateTask(id, { status: 'PAUSED' });
  for (const id of ids.slice(3, 12)) await backupState.updateTask(id, { status: 'BEING_DELETED' });
  await db
    .update(backupTasks)
    .set({ nextRunAt: new Date(base + 3 * 3_600_000) })
    .where(eq(backupTasks.id, ids[40] ?? 0));
  // Busy actions: three instants shared by many (two of them with microseconds), one stalled (not running).
  const instants = ['2026-12-01T10:00:00.123456Z', '2026-12-01T10:00:00Z', '2026-12-01T09:59:59.999999Z'];
  for (const [i, id] of ids.slice(12, 36).entries()) {
    await db.insert(taskActions).values({
      backupTaskId: id,
      backupMachineId: machine,
      type: i % 4 === 0 ? 'BACKUP_RESTORE' : 'BACKUP_RUN',
      status: i % 2 === 0 ? 'IN_PROGRESS' : 'INITIATED',
      timeStarted: sql`${instants[i % 3]}::timestamptz`,
      stalledAt: i === 5 ? new Date() : null,
    });
  }
});
afterAll(() => t?.close());

describe('a deep page by cursor holds the rows the offset gives', () => {
  for (const name of ['running', 'nextPeriod', 'beingDeleted'] as const) {
    it(`${name}: every page size walks every row once, in the list's order, as the page numbers do`, async () => {
      const all = await expected(name);
      expect(all.length).toBeGreaterThan(8);
      for (const size of [1, 2, 3, 4, 7, 10, all.length, all.length + 5]) {
        expect(await walkByCursor(name, size), `size ${size}`).toEqual(all);
        expect(await walkByPage(name, size), `size ${size}`).toEqual(all);
      }
    });
  }

  it('answers the total of the whole list on every page, and no cursor on the last', async () => {
    const all = await expected('nextPeriod');
    const first = await pageOf(withQuery(R.nextPeriod.build(), { size: 4 }));
    expect(first).toMatchObject({ totalElements: all.length, totalPages: Math.ceil(all.length / 4) });
    const second = await pageOf(withQuery(R.nextPeriod.build(), { size: 4, cursor: first.nextCursor ?? '' }));
    expect(second.totalElements).toBe(all.length);
    const whole = await pageOf(withQuery(R.nextPeriod.build(), { size: 200 }));
    expect(whole.nextCursor).toBeNull();
  });

  it('a page started from any row’s cursor holds the rows after it (with a page number beside it: the same rows)', async () => {
    const all = await expected('nextPeriod');
    const keys = rowsOf<{ id: number; key: string }>(
      await t.database.db.execute(
        sql`select id, next_run_at::text as key from backup_tasks where id in (${sql.join(
          all.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
    const keyOf = new Map(keys.map((row) => [Number(row.id), row.key]));
    for (const [i, id] of all.entries()) {
      const cursor = encodeCursor({ list: 'taskOverview.nextPeriod', scope: 'provider', key: keyOf.get(id) ?? '', id });
      const result = await pageOf(withQuery(R.nextPeriod.build(), { size: 3, cursor }));
      expect(result.elements.map((row) => row.id)).toEqual(all.slice(i + 1, i + 4));
      if ((i + 1) % 3 === 0) {
        const byPage = await pageOf(withQuery(R.nextPeriod.build(), { size: 3, page: (i + 1) / 3 }));
        expect(byPage.elements.map((row) => row.id)).toEqual(all.slice(i + 1, i + 4));
      }
    }
  });
});

describe('bad cursors and page numbers: 400 on the field', () => {
  const expectRefused = async (url: string, fieldName: string, message: string) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      status: 'ERROR',
      result: null,
      messages: [{ type: 'ERROR', fieldName, message }],
    });
  };

  it('refuses a cursor that is not one (garbage, too long, wrong shape)', async () => {
    const notJson = btoa('not json').replace(/=+$/, '');
    const wrongShape = btoa(JSON.stringify({ id: 1 })).replace(/=+$/, '');
    for (const cursor of [
      '%%%',
      'x'.repeat(400),
      notJson,
      wrongShape,
      'a',
      encodeCursor({ list: 'x', scope: 'y', key: null, id: 1 }).slice(0, -2),
    ]) {
      await expectRefused(withQuery(R.nextPeriod.build(), { cursor }), 'cursor', CURSOR_MESSAGES.invalid);
    }
  });

  it('refuses a cursor of another list, or one without the key its list sorts by', async () => {
    const running = encodeCursor({
      list: 'taskOverview.running',
      scope: 'provider',
      key: '2026-12-01 10:00:00+00',
      id: 5,
    });
    await expectRefused(withQuery(R.nextPeriod.build(), { cursor: running }), 'cursor', CURSOR_MESSAGES.otherList);
    const keyless = encodeCursor({ list: 'taskOverview.nextPeriod', scope: 'provider', key: null, id: 5 });
    await expectRefused(withQuery(R.nextPeriod.build(), { cursor: keyless }), 'cursor', CURSOR_MESSAGES.otherList);
    const keyed = encodeCursor({ list: 'taskOverview.beingDeleted', scope: 'provider', key: 'x', id: 5 });
    await expectRefused(withQuery(R.beingDeleted.build(), { cursor: keyed }), 'cursor', CURSOR_MESSAGES.otherList);
  });

  it('refuses a key that is not a time, on the cursor', async () => {
    const cursor = encodeCursor({ list: 'taskOverview.nextPeriod', scope: 'provider', key: 'yesterday-ish', id: 5 });
    const response = await get(withQuery(R.nextPeriod.build(), { cursor }));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().messages).toEqual([expect.objectContaining({ fieldName: 'cursor' })]);
  });

  it('bounds the page number to the first LIST_COUNT_LIMIT rows, and refuses a page with a cursor', async () => {
    const size = 10;
    const lastReachable = LIST_COUNT_LIMIT / size - 1;
    expect((await get(withQuery(R.nextPeriod.build(), { size, page: lastReachable }))).statusCode).toBe(200);
    await expectRefused(
      withQuery(R.nextPeriod.build(), { size, page: lastReachable + 1 }),
      'page',
      CURSOR_MESSAGES.tooDeep,
    );
    const first = await pageOf(withQuery(R.nextPeriod.build(), { size: 2 }));
    await expectRefused(
      withQuery(R.nextPeriod.build(), { size: 2, page: 1, cursor: first.nextCursor ?? '' }),
      'cursor',
      CURSOR_MESSAGES.both,
    );
  });
});
