import { timestamp } from 'drizzle-orm/pg-core';

/** Timestamps are stored with time zone and read as Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => ts('created_at').notNull().defaultNow();
