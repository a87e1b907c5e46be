import { Readable } from 'node:stream';
import {
  type Actor,
  managedCustomers,
  mayChange,
  PAGES,
  previousMonth,
  VERIFICATION_REPORT_TEXTS as T,
  VERIFICATION_CSV_HEADER,
  VERIFICATION_REPORT,
  type VerificationPeriod,
  type VerificationPeriodQuery,
  type VerificationReportSettings,
  verificationCsvCells,
  verificationFileName,
  verificationPeriod,
  withQuery,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { forbidden, notFound } from '../../http/errors.js';
import { enqueueMails } from '../../mail/outbox.js';
import { csvLine } from '../audit/csv.js';
import { customerReportPdf, taskReportPdf } from './pdf.js';
import { createVerificationReportRepo, type ReportScope, totalsOf, type VerificationReportRepo } from './repo.js';

/** A download: its file name and its body, streamed. */
export interface ReportFile {
  fileName: string;
  type: string;
  body: Readable;
}

const CSV_TYPE = 'text/csv; charset=utf-8';
const PDF_TYPE = 'application/pdf';
/** Customers claimed per transaction by the monthly mail. */
const MAIL_BATCH = 100;

/**
 * The verification report (issue 32 item 4): a customer's, or a roll-up over the customers a provider or reseller
 * manages, as a streamed CSV of every task and a one-page PDF; and the monthly mail of the customers that opted in.
 * Another tenant's customer is not found; a caller who manages no customers is refused.
 */
export function createVerificationReportService(deps: { db: Db; repo: VerificationReportRepo; now: () => Date }) {
  const { repo } = deps;

  function csv(scope: ReportScope, period: VerificationPeriod, subject: string): ReportFile {
    async function* lines() {
      yield csvLine(VERIFICATION_CSV_HEADER);
      for await (const row of repo.allTasks(scope, period, VERIFICATION_REPORT.csvBatch)) {
        yield csvLine(verificationCsvCells(row));
      }
    }
    return { fileName: verificationFileName(subject, period, 'csv'), type: CSV_TYPE, body: Readable.from(lines()) };
  }

  async function customerPdf(customer: { id: number; name: string }, period: VerificationPeriod): Promise<ReportFile> {
    const scope = { customerId: customer.id };
    const [summary] = await repo.customerRows(scope, period);
    const rows = await repo.firstTasks(scope, period, VERIFICATION_REPORT.pdfTaskRows);
    const body = taskReportPdf({
      title: T.title,
      subject: customer.name,
      period,
      generatedAt: deps.now(),
      totals: totalsOf(summary ? [summary] : []),
      rows,
      total: summary?.tasks ?? 0,
    });
    return {
      fileName: verificationFileName(customer.name, period, 'pdf'),
      type: PDF_TYPE,
      body: body as unknown as Readable,
    };
  }

  async function rollupPdf(scope: ReportScope, period: VerificationPeriod): Promise<ReportFile> {
    const rows = await repo.customerRows(scope, period);
    // Those with failures first: what an auditor or the provider looks at; then by name (the repo's order).
    const failures = (r: (typeof rows)[number]) => r.runsFailed + r.restoreTestsFailed + r.dataChecksFailed;
    const shown = [...rows]
      .sort((a, b) => Number(failures(b) > 0) - Number(failures(a) > 0))
      .slice(0, VERIFICATION_REPORT.pdfCustomerRows);
    const body = customerReportPdf({
      title: T.rollupTitle,
      subject: `${rows.length} customers`,
      period,
      generatedAt: deps.now(),
      totals: totalsOf(rows),
      rows: shown,
      total: rows.length,
    });
    return {
      fileName: verificationFileName('all-customers', period, 'pdf'),
      type: PDF_TYPE,
      body: body as unknown as Readable,
    };
  }

  /** The customer a provider or reseller admin asks for: not found outside what they manage. */
  async function managedCustomer(actor: Actor, customerId: number) {
    const managed = managedCustomers(actor);
    if (!managed) throw forbidden();
    const customer = await repo.customerIn(customerId, managed);
    if (!customer) throw notFound();
    return customer;
  }

  const ownCustomer = async (actor: Actor) => {
    if (actor.customerId === null) throw forbidden();
    const customer = await repo.customerIn(actor.customerId, { kind: 'all' });
    if (!customer) throw notFound();
    return customer;
  };

  const periodOf = (query: VerificationPeriodQuery) => verificationPeriod(query, deps.now());

  return {
    async ownCsv(actor: Actor, query: VerificationPeriodQuery) {
      const customer = await ownCustomer(actor);
      return csv({ customerId: customer.id }, periodOf(query), customer.name);
    },
    async ownPdf(actor: Actor, query: VerificationPeriodQuery) {
      return customerPdf(await ownCustomer(actor), periodOf(query));
    },
    async customerCsv(actor: Actor, customerId: number, query: VerificationPeriodQuery) {
      const customer = await managedCustomer(actor, customerId);
      return csv({ customerId: customer.id }, periodOf(query), customer.name);
    },
    async customerPdf(actor: Actor, customerId: number, query: VerificationPeriodQuery) {
      return customerPdf(await managedCustomer(actor, customerId), periodOf(query));
    },
    rollupCsv(actor: Actor, query: VerificationPeriodQuery) {
      const managed = managedCustomers(actor);
      if (!managed) throw forbidden();
      return csv({ managed }, periodOf(query), 'all-customers');
    },
    rollupPdf(actor: Actor, query: VerificationPeriodQuery) {
      const managed = managedCustomers(actor);
      if (!managed) throw forbidden();
      return rollupPdf({ managed }, periodOf(query));
    },

    async settings(actor: Actor): Promise<VerificationReportSettings> {
      const customer = await ownCustomer(actor);
      return { monthlyMail: await repo.monthlyMail(customer.id) };
    },
    async saveSettings(actor: Actor, settings: VerificationReportSettings): Promise<VerificationReportSettings> {
      const customer = await ownCustomer(actor);
      if (!mayChange(actor)) throw forbidden();
      await repo.saveMonthlyMail(customer.id, settings.monthlyMail);
      return settings;
    },

    /**
     * One pass of the monthly mail: claims the opted-in customers not yet mailed for last month and queues one mail
     * per super admin (in the customer's brand, with the month's totals and a link to the report), in the
     * transaction that claims them; the outbox's event key makes a repeat one mail. Answers how many customers.
     */
    async monthlyPass(): Promise<number> {
      const month = previousMonth(deps.now());
      const period = verificationPeriod(month.query, deps.now());
      let total = 0;
      for (;;) {
        const claimed = await deps.db.transaction(async (tx) => {
          const txRepo = createVerificationReportRepo(tx);
          const due = await txRepo.claimMonthly(month.key, MAIL_BATCH);
          for (const customerId of due) {
            const [summary] = await txRepo.customerRows({ customerId }, period);
            const totals = totalsOf(summary ? [summary] : []);
            const message = {
              subject: T.mailSubject(month.key),
              lines: T.mailLines(month.key, summary?.tasks ?? 0, summary?.tasksVerified ?? 0, totals),
              link: { label: T.mailLink, path: withQuery(PAGES.verificationReport, month.query) },
            };
            const admins = await txRepo.superAdmins(customerId);
            await enqueueMails(
              tx,
              admins.map((admin) => ({
                eventKey: `verification-report:${month.key}:${customerId}:${admin.userId}`,
                customerId,
                kind: VERIFICATION_REPORT.mailKind,
                recipient: admin.email,
                message,
              })),
            );
          }
          return due.length;
        });
        total += claimed;
        if (claimed < MAIL_BATCH) return total;
      }
    },
  };
}
export type VerificationReportService = ReturnType<typeof createVerificationReportService>;
