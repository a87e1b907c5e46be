import type { AuditEventType } from '@portal/domain';
import { count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditEvents } from '../../db/schema/index.js';

export interface AuditEventInput {
  type: AuditEventType;
  userId?: number | null;
  customerId?: number | null;
  email?: string | null;
  ipAddress?: string | null;
  detail?: Record<string, unknown>;
}

export function createAuditRepo(db: Executor) {
  return {
    async record(event: AuditEventInput): Promise<void> {
      await db.insert(auditEvents).values({
        type: event.type,
        userId: event.userId ?? null,
        customerId: event.customerId ?? null,
        email: event.email ?? null,
        ipAddress: event.ipAddress ?? null,
        detail: event.detail ?? null,
      });
    },
    async pageForUser(userId: number, page: number, size: number) {
      const [rows, total] = await Promise.all([
        db
          .select()
          .from(auditEvents)
          .where(eq(auditEvents.userId, userId))
          .orderBy(desc(auditEvents.at), desc(auditEvents.id))
          .limit(size)
          .offset(page * size),
        db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.userId, userId)),
      ]);
      return { rows, total: total[0]?.n ?? 0 };
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
