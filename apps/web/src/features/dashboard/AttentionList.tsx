import {
  ATTENTION_KINDS,
  type AttentionList as AttentionAnswer,
  type AttentionItem,
  type AttentionKind,
  attentionShowingText,
  attentionTotal,
  MESSAGES,
} from '@portal/domain';
import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { localDateTimeShort, StatusBadge, type StatusVariantMap } from '../../ui';

const TEXT = MESSAGES.dashboard.attention;

const KIND_VARIANTS: StatusVariantMap<AttentionKind> = {
  TASK_FAILED: 'danger',
  TASK_MISSED: 'warning',
  RUN_STALLED: 'warning',
  OVER_QUOTA: 'danger',
  MACHINE_OFFLINE: 'secondary',
  VERIFICATION_FAILED: 'danger',
  VERIFICATION_OVERDUE: 'warning',
};

const kindBadge = (kind: AttentionKind) => (
  <StatusBadge status={kind} label={TEXT.kinds[kind]} variant={KIND_VARIANTS[kind]} />
);

function AttentionRow({ item }: { item: AttentionItem }) {
  return (
    <li className="list-group-item d-flex flex-wrap align-items-center gap-2 px-0" data-testid="attention-item">
      {kindBadge(item.kind)}
      <Link to={item.url} className="fw-semibold">
        {item.taskName ?? item.machineName}
      </Link>
      <span className="text-muted small">
        {item.taskName === null ? item.customerName : `${item.machineName} · ${item.customerName}`}
      </span>
      <time dateTime={item.at} className="ms-auto small text-muted">
        {TEXT.since} {localDateTimeShort(item.at)}
      </time>
    </li>
  );
}

/**
 * 'Needs attention' above the dashboard's tabs (issue 31): the counts per kind, then the newest items of the
 * caller's scope, each a link to its task's or machine's page.
 */
export function AttentionList({ list }: { list: AttentionAnswer }) {
  const headingId = useId();
  const total = attentionTotal(list);
  return (
    <Card as="section" className="mb-3" aria-labelledby={headingId} data-testid="attention">
      <Card.Body className="py-2">
        <div className="d-flex flex-wrap align-items-baseline gap-2 mb-1">
          <h2 id={headingId} className="h6 mb-0">
            {TEXT.title}
          </h2>
          {ATTENTION_KINDS.filter((kind) => list.counts[kind] > 0).map((kind) => (
            <span key={kind} className="small" data-testid="attention-count">
              {TEXT.kinds[kind]}: {list.counts[kind]}
            </span>
          ))}
          {total > list.items.length && (
            <span className="small text-muted ms-auto" data-testid="attention-showing">
              {attentionShowingText(list.items.length, total)}
            </span>
          )}
        </div>
        {total === 0 ? (
          <p className="text-muted small mb-0">{TEXT.none}</p>
        ) : (
          <ul className="list-group list-group-flush" aria-labelledby={headingId}>
            {list.items.map((item) => (
              <AttentionRow key={`${item.kind}-${item.url}`} item={item} />
            ))}
          </ul>
        )}
      </Card.Body>
    </Card>
  );
}
