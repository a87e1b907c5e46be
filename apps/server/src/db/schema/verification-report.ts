import { boolean, index, pgTable, varchar } from 'drizzle-orm/pg-core';
import { customers } from './accounts.js';
import { belongsTo } from './columns.js';

/**
 * A customer's monthly verification report mail (issue 32 item 4): opted in by its super admin, and the month
 * ('2026-11') last mailed, which the job moves in the statement that claims the customer, so a month goes out once
 * whichever instance runs it.
 */
export const verificationReportSettings = pgTable(
  'verification_report_settings',
  {
    customerId: belongsTo('customer_id', () => customers.id).primaryKey(),
    monthlyMail: boolean('monthly_mail').notNull().default(false),
    lastMailedMonth: varchar('last_mailed_month', { length: 7 }),
  },
  (t) => [index('verification_report_settings_due_idx').on(t.lastMailedMonth)],
);
