import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/index.js';
import { useTestAppWithTenants } from '../testing/suite.js';
import { enqueueMails } from './outbox.js';

const ctx = useTestAppWithTenants();

describe('mail outbox', () => {
  it('queues a mail once per event key, however often (and by whom) it is queued', async () => {
    const mail = {
      eventKey: 'test-event:1',
      customerId: ctx.tenants.customerA.customerId,
      kind: 'TEST',
      recipient: 'someone@example.com',
      message: { subject: 'Subject', lines: ['Line'], link: { label: 'Open', path: '/backupmachines/1' } },
    };
    const counts = await Promise.all([
      enqueueMails(ctx.t.database.db, [mail]),
      enqueueMails(ctx.t.database.db, [mail]),
    ]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(await enqueueMails(ctx.t.database.db, [mail, { ...mail, eventKey: 'test-event:2' }])).toBe(1);
    const rows = await ctx.t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'TEST'))
      .orderBy(mailOutbox.id);
    expect(rows.map((r) => [r.eventKey, r.status, r.attempts])).toEqual([
      ['test-event:1', 'QUEUED', 0],
      ['test-event:2', 'QUEUED', 0],
    ]);
  });
});
