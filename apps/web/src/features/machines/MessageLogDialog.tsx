import {
  type ActionType,
  DEFAULT_MESSAGE_TYPES,
  displayingItems,
  type MachineMessageRow,
  MESSAGE_LOG_PAGE_SIZE,
  MESSAGE_TYPES,
  MESSAGES,
  type MessageType,
  messageTypesOrDefault,
  ROUTES,
} from '@portal/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import { call } from '../../app/api';
import { DataTable, type DataTableColumn, type DialogProps, localDateTime, useOnOpen, ViewModal } from '../../ui';
import { machineKeys } from './queries';

const TEXT = MESSAGES.backupMachine;
const C = TEXT.columns;

export interface MessageLogDialogProps extends DialogProps {
  machineId: number;
  /** With a task (and an action of it): that task's (action's) messages only, as 'View log' of a run asks. */
  backupTaskId?: number;
  backupActionId?: number;
  backupTaskActionType?: ActionType;
}

const COLUMNS: Array<DataTableColumn<MachineMessageRow>> = [
  { key: 'time', header: C.time, render: (m) => localDateTime(m.time) },
  { key: 'type', header: C.messageType, render: (m) => m.messageType },
  { key: 'task', header: C.backupTaskId, render: (m) => m.backupTaskId ?? '' },
  { key: 'action', header: C.actionId, render: (m) => m.actionId ?? '' },
  { key: 'message', header: C.message, className: 'text-break', render: (m) => m.message },
];

const EMPTY = { elements: [] as MachineMessageRow[], totalElements: 0, totalPages: 0 };

/**
 * The message log (001 §2, §4, §7): a Filter collapse of message types, the messages newest first, 10 a
 * page, and 'Displaying X to Y of Z items'. Emptying the filter falls back to ERROR; a failed load shows
 * an empty list, no message (001 §8).
 */
export function MessageLogDialog({
  machineId,
  backupTaskId,
  backupActionId,
  backupTaskActionType,
  ...shown
}: MessageLogDialogProps) {
  const [types, setTypes] = useState<MessageType[]>([...DEFAULT_MESSAGE_TYPES]);
  const [page, setPage] = useState(0);
  const [filterOpen, setFilterOpen] = useState(false);
  // Each opening starts from the ERROR messages, first page, filter closed.
  useOnOpen(shown.show, () => {
    setTypes([...DEFAULT_MESSAGE_TYPES]);
    setPage(0);
    setFilterOpen(false);
  });

  const body = {
    backupTaskId: backupTaskId ?? null,
    backupActionId: backupActionId ?? null,
    messageTypesToRequest: types,
    backupTaskActionType: backupTaskActionType ?? null,
  };
  const messages = useQuery({
    queryKey: [...machineKeys.messages(machineId), body, page],
    queryFn: async () => {
      const answer = await call(ROUTES.machines.messages, { machineId }, body, { page, size: MESSAGE_LOG_PAGE_SIZE });
      return answer.ok && answer.envelope.result ? answer.envelope.result : EMPTY;
    },
    enabled: shown.show,
    placeholderData: keepPreviousData,
  });
  const result = messages.data ?? EMPTY;

  const toggle = (type: MessageType, checked: boolean) => {
    const next = checked ? [...types, type] : types.filter((t) => t !== type);
    setTypes(messageTypesOrDefault(next));
    setPage(0);
  };

  const from = result.totalElements === 0 ? 0 : page * MESSAGE_LOG_PAGE_SIZE + 1;
  const to = Math.min((page + 1) * MESSAGE_LOG_PAGE_SIZE, result.totalElements);
  return (
    <ViewModal
      {...shown}
      title={TEXT.messageLogTitle}
      closeLabel={TEXT.close}
      size="xl"
      scrollable
      data-testid="message-log-dialog"
    >
      <Button
        variant="outline-secondary"
        size="sm"
        className="mb-2"
        aria-expanded={filterOpen}
        aria-controls="message-log-filter"
        onClick={() => setFilterOpen((open) => !open)}
      >
        {TEXT.filter}
      </Button>
      <Collapse in={filterOpen}>
        <div id="message-log-filter">
          <fieldset className="mb-3">
            <legend className="visually-hidden">{TEXT.filter}</legend>
            {MESSAGE_TYPES.map((type) => (
              <Form.Check
                key={type}
                inline
                type="checkbox"
                id={`message-type-${type}`}
                label={type}
                checked={types.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
            ))}
          </fieldset>
        </div>
      </Collapse>
      <DataTable<MachineMessageRow>
        aria-label={TEXT.messageLogTitle}
        data-testid="message-log-table"
        columns={COLUMNS}
        rows={result.elements}
        rowKey={(m) => m.id}
        totalElements={result.totalElements}
        page={page}
        size={MESSAGE_LOG_PAGE_SIZE}
        onPageChange={setPage}
        loading={messages.isFetching}
        emptyText={TEXT.noMessages}
        caption={<span data-testid="message-log-caption">{displayingItems(from, to, result.totalElements)}</span>}
      />
    </ViewModal>
  );
}
