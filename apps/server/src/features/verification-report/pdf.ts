import {
  VERIFICATION_REPORT_TEXTS as T,
  type VerificationCustomerRow,
  type VerificationPeriod,
  type VerificationReportCounts,
  type VerificationReportTaskRow,
} from '@portal/domain';
import PDFDocument from 'pdfkit';

/** One page, A4 landscape, in points. */
const PAGE = { size: 'A4', layout: 'landscape', margin: 36 } as const;
const ROW_HEIGHT = 13;
const FONT_SIZE = 7.5;

interface Column<Row> {
  header: string;
  width: number;
  cell: (row: Row) => string;
}

const day = (at: string | null) => (at ? at.slice(0, 16).replace('T', ' ') : T.never);
const withOutcome = (at: string | null, outcome: string | null) =>
  at ? `${day(at)} ${outcome ?? ''}`.trim() : T.never;
const pair = (a: number, b: number) => `${a} / ${b}`;

const TASK_COLUMNS: Column<VerificationReportTaskRow>[] = [
  { header: 'Machine', width: 110, cell: (r) => r.machineName },
  { header: 'Task', width: 110, cell: (r) => r.taskName },
  { header: 'Last successful backup', width: 90, cell: (r) => day(r.lastSuccessfulBackupAt) },
  { header: 'Last restore test', width: 110, cell: (r) => withOutcome(r.lastRestoreTestAt, r.lastRestoreTestOutcome) },
  { header: 'Last data check', width: 110, cell: (r) => withOutcome(r.lastDataCheckAt, r.lastDataCheckOutcome) },
  { header: 'Runs ok / failed', width: 80, cell: (r) => pair(r.runsSucceeded, r.runsFailed) },
  { header: 'Tests passed / failed', width: 85, cell: (r) => pair(r.restoreTestsPassed, r.restoreTestsFailed) },
  { header: 'Checks passed / failed', width: 75, cell: (r) => pair(r.dataChecksPassed, r.dataChecksFailed) },
];

const CUSTOMER_COLUMNS: Column<VerificationCustomerRow>[] = [
  { header: 'Customer', width: 200, cell: (r) => r.customerName },
  { header: 'Tasks', width: 60, cell: (r) => String(r.tasks) },
  { header: 'Verified tasks', width: 80, cell: (r) => String(r.tasksVerified) },
  { header: 'Runs ok / failed', width: 110, cell: (r) => pair(r.runsSucceeded, r.runsFailed) },
  { header: 'Tests passed / failed', width: 110, cell: (r) => pair(r.restoreTestsPassed, r.restoreTestsFailed) },
  { header: 'Checks passed / failed', width: 110, cell: (r) => pair(r.dataChecksPassed, r.dataChecksFailed) },
];

export interface PdfReport<Row> {
  title: string;
  /** Who it is for: the customer's name, or the roll-up's subject. */
  subject: string;
  period: VerificationPeriod;
  generatedAt: Date;
  totals: VerificationReportCounts;
  /** The rows shown (the caller keeps them to what fits) and how many there are in all. */
  rows: readonly Row[];
  total: number;
}

/** Cuts a cell to its column's width, with an ellipsis when it had to. */
function fit(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * The one-page PDF of a report: heading, period, totals and a compact table of the rows that fit, with a line saying
 * how many more the CSV holds. Every text is placed at a fixed position with no line breaks, so the page never
 * flows onto a second one. pdfkit's standard Helvetica covers Latin-1 (WinAnsi) names; others print as shown by it.
 */
function render<Row>(
  report: PdfReport<Row>,
  columns: Column<Row>[],
  moreText: (shown: number, total: number) => string,
) {
  const doc = new PDFDocument({ ...PAGE, info: { Title: `${report.title}: ${report.subject}` } });
  const left = PAGE.margin;
  let y = PAGE.margin;
  const line = (text: string, size: number, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
    doc.text(text, left, y, { lineBreak: false });
    y += size + 6;
  };
  line(report.title, 16, true);
  line(report.subject, 12, true);
  line(
    `${T.pdfPeriod(report.period.from, report.period.to)}   ${T.pdfGenerated(report.generatedAt.toISOString().slice(0, 16).replace('T', ' '))} UTC`,
    9,
  );
  const t = report.totals;
  line(
    `${T.pdfTotals}: runs ${t.runsSucceeded} succeeded, ${t.runsFailed} failed; restore tests ${t.restoreTestsPassed} passed, ` +
      `${t.restoreTestsFailed} failed; data checks ${t.dataChecksPassed} passed, ${t.dataChecksFailed} failed.`,
    9,
  );
  y += 4;
  const drawRow = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE);
    let x = left;
    columns.forEach((column, i) => {
      doc.text(fit(doc, cells[i] ?? '', column.width - 4), x, y, { lineBreak: false });
      x += column.width;
    });
    y += ROW_HEIGHT;
  };
  const tableWidth = columns.reduce((sum, c) => sum + c.width, 0);
  drawRow(
    columns.map((c) => c.header),
    true,
  );
  doc
    .moveTo(left, y - 3)
    .lineTo(left + tableWidth, y - 3)
    .lineWidth(0.5)
    .stroke();
  if (report.rows.length === 0) line(T.pdfNoTasks, 9);
  for (const row of report.rows)
    drawRow(
      columns.map((c) => c.cell(row)),
      false,
    );
  if (report.total > report.rows.length) {
    y += 4;
    line(moreText(report.rows.length, report.total), 9);
  }
  doc.end();
  return doc;
}

/** A customer's report as a PDF stream. */
export const taskReportPdf = (report: PdfReport<VerificationReportTaskRow>) =>
  render(report, TASK_COLUMNS, T.pdfMoreTasks);

/** A roll-up as a PDF stream: a row per customer. */
export const customerReportPdf = (report: PdfReport<VerificationCustomerRow>) =>
  render(report, CUSTOMER_COLUMNS, T.pdfMoreCustomers);
