import { type DemoMail, MESSAGES, ROUTES } from '@portal/domain';
import { Fragment, useState } from 'react';
import { Button, Card } from 'react-bootstrap';
import { routeCall } from '../../app/api';
import { DataTable, Page, usePagedQuery, useTableState } from '../../ui';

const TEXT = MESSAGES.demoMails;

/** Splits text into plain runs and links, each keyed by where it starts. */
function segments(text: string): Array<{ at: number; text: string; link: boolean }> {
  const out: Array<{ at: number; text: string; link: boolean }> = [];
  let at = 0;
  for (const match of text.matchAll(/https?:\/\/\S+/g)) {
    const start = match.index ?? 0;
    if (start > at) out.push({ at, text: text.slice(at, start), link: false });
    out.push({ at: start, text: match[0], link: true });
    at = start + match[0].length;
  }
  if (at < text.length) out.push({ at, text: text.slice(at), link: false });
  return out;
}

/** Links in a mail become anchors; the rest stays text (React escapes it). */
function MailText({ text }: { text: string }) {
  return (
    <pre className="mb-0 text-wrap" data-testid="mail-text">
      {segments(text).map((part) =>
        part.link ? (
          <a key={part.at} href={part.text}>
            {part.text}
          </a>
        ) : (
          <Fragment key={part.at}>{part.text}</Fragment>
        ),
      )}
    </pre>
  );
}

/**
 * Demo mode's mailbox: what the local SMTP sink received (password reset links, notifications). In the admin
 * area: those links open any account, so only the provider admin reads them.
 */
export function DemoMailsPage() {
  const table = useTableState({ size: 10 });
  const mails = usePagedQuery(['demo-mails'], routeCall(ROUTES.demo.mails, {}), table.params, {
    refetchInterval: 3000,
  });
  const [openId, setOpenId] = useState<number | null>(null);
  const open = mails.rows.find((m) => m.id === openId);
  return (
    <Page title={TEXT.title}>
      <DataTable<DemoMail>
        aria-label="Mails"
        columns={[
          { key: 'receivedAt', header: 'Received', render: (m) => new Date(m.receivedAt).toLocaleTimeString() },
          { key: 'to', header: 'To', render: (m) => m.to },
          {
            key: 'subject',
            header: 'Subject',
            render: (m) => (
              <Button variant="link" className="p-0 text-start" onClick={() => setOpenId(m.id)}>
                {m.subject}
              </Button>
            ),
          },
        ]}
        rows={mails.rows}
        rowKey={(m) => m.id}
        totalElements={mails.totalElements}
        page={table.page}
        size={table.size}
        onPageChange={table.setPage}
        emptyText={TEXT.empty}
      />
      {open && (
        <Card className="mt-3">
          <Card.Header>{open.subject}</Card.Header>
          <Card.Body>
            <MailText text={open.text} />
          </Card.Body>
        </Card>
      )}
    </Page>
  );
}
