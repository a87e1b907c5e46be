import { NOTIFICATION_TEXTS, type NotificationMachineOption } from '@portal/domain';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import CloseButton from 'react-bootstrap/CloseButton';
import Form from 'react-bootstrap/Form';
import { type DataTableColumn, PagedTable, SearchBox } from '../../ui';
import { notificationList } from './queries';

const TEXT = NOTIFICATION_TEXTS;

export interface MachineChooserProps {
  /** The chosen machines, with the names to show them by. */
  chosen: readonly NotificationMachineOption[];
  onChange: (chosen: NotificationMachineOption[]) => void;
  /** The field's message (client or server), e.g. 'Choose at least one machine, or all machines'. */
  error?: string | undefined;
}

/** The customer's machines, paged and searched on the server, each with a checkbox; the chosen ones above. */
export function MachineChooser({ chosen, onChange, error }: MachineChooserProps) {
  const [search, setSearch] = useState('');
  const chosenIds = new Set(chosen.map((m) => m.id));
  const toggle = (machine: NotificationMachineOption, on: boolean) =>
    onChange(on ? [...chosen, machine] : chosen.filter((m) => m.id !== machine.id));

  const columns: Array<DataTableColumn<NotificationMachineOption>> = [
    {
      key: 'choose',
      header: <span className="visually-hidden">{TEXT.chosenMachines}</span>,
      render: (m) => (
        <Form.Check
          type="checkbox"
          aria-label={TEXT.chooseLabel(m.name)}
          checked={chosenIds.has(m.id)}
          onChange={(event) => toggle(m, event.target.checked)}
        />
      ),
    },
    { key: 'name', header: TEXT.columns.machine, render: (m) => m.name },
    { key: 'package', header: TEXT.columns.package, render: (m) => m.packageName },
  ];

  return (
    <fieldset className="mb-3" data-testid="machine-chooser">
      <legend className="fs-6">{TEXT.chosenMachines}</legend>
      <div className="d-flex flex-wrap gap-2 mb-2" data-testid="chosen-machines">
        {chosen.map((m) => (
          <Badge key={m.id} bg="secondary" className="d-inline-flex align-items-center gap-1">
            {m.name}
            <CloseButton variant="white" aria-label={TEXT.removeLabel(m.name)} onClick={() => toggle(m, false)} />
          </Badge>
        ))}
      </div>
      {error !== undefined && (
        <div className="text-danger small mb-2" role="alert" data-testid="machine-ids-error">
          {error}
        </div>
      )}
      <SearchBox label={TEXT.searchMachines} placeholder={TEXT.searchMachines} className="mb-2" onSearch={setSearch} />
      <PagedTable
        aria-label={TEXT.chosenMachines}
        data-testid="machine-chooser-table"
        {...notificationList('machines')}
        search={search}
        columns={columns}
        rowKey={(m) => m.id}
        emptyText={TEXT.noMachines}
      />
    </fieldset>
  );
}
