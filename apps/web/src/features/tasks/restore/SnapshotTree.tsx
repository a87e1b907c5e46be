import { MESSAGES, ROUTES, type ServerMessage, type SnapshotTreeItem } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { getResult, routeCall } from '../../../app/api';
import { FormModal, type FormModalProps, GlobalErrors } from '../../../ui';
import type { RunRef } from './mutations';

const TEXT = MESSAGES.restore;

/** The query key of one folder of a run's snapshot. */
export const snapshotTreeKey = (run: RunRef, path: string) => ['snapshotTree', run.runId, path] as const;

interface TreeProps {
  run: RunRef;
  /** Chosen items by path. */
  chosen: ReadonlyMap<string, SnapshotTreeItem>;
  onToggle: (item: SnapshotTreeItem, on: boolean) => void;
  disabled?: boolean;
}

/** One folder's children, asked for when the folder is opened (GET ROUTES.restore.snapshotTree). */
function Folder({ run, path, chosen, onToggle, disabled, depth }: TreeProps & { path: string; depth: number }) {
  const children = useQuery({
    queryKey: snapshotTreeKey(run, path),
    queryFn: () => getResult(routeCall(ROUTES.restore.snapshotTree, run), { path }),
  });
  if (children.isPending) {
    return (
      <div className="ms-3 text-muted">
        <Spinner size="sm" animation="border" role="status" aria-label={TEXT.treeLoading} /> {TEXT.treeLoading}
      </div>
    );
  }
  if (children.isError) return <div className="text-danger">{TEXT.treeError}</div>;
  const items = children.data.elements;
  if (items.length === 0) return <div className="ms-3 text-muted">{TEXT.treeEmpty}</div>;
  return (
    <ul className="list-unstyled mb-0" style={{ marginLeft: depth === 0 ? 0 : '1.25rem' }}>
      {items.map((item) => (
        <Entry
          key={item.path}
          item={item}
          run={run}
          chosen={chosen}
          onToggle={onToggle}
          disabled={disabled}
          depth={depth}
        />
      ))}
    </ul>
  );
}

function Entry({
  item,
  run,
  chosen,
  onToggle,
  disabled,
  depth,
}: TreeProps & { item: SnapshotTreeItem; depth: number }) {
  const [open, setOpen] = useState(false);
  const folder = item.type === 'DIRECTORY';
  return (
    <li>
      <div className="d-flex align-items-center gap-1">
        {folder ? (
          <Button
            variant="link"
            size="sm"
            className="p-0 text-decoration-none"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${item.name}`}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </Button>
        ) : (
          <span className="d-inline-block" style={{ width: '0.9rem' }} />
        )}
        <Form.Check
          type="checkbox"
          id={`snapshot-item-${item.path}`}
          label={item.name}
          checked={chosen.has(item.path)}
          disabled={disabled}
          onChange={(event) => onToggle(item, event.currentTarget.checked)}
        />
      </div>
      {folder && open ? (
        <Folder run={run} path={item.path} chosen={chosen} onToggle={onToggle} disabled={disabled} depth={depth + 1} />
      ) : null}
    </li>
  );
}

/**
 * The tree of a run's snapshot with a checkbox per item, each folder loaded when opened (the remote item tree
 * of 002 §2.6's Download modal). Choosing a folder takes everything in it.
 */
export function SnapshotTree(props: TreeProps) {
  return (
    <fieldset
      aria-label={TEXT.treeLabel}
      className="border rounded p-2"
      style={{ maxHeight: '50vh', overflow: 'auto' }}
    >
      <Folder {...props} path="/" depth={0} />
    </fieldset>
  );
}

/** A chosen item as the download and restore requests carry it. */
export type ChosenItem = Pick<SnapshotTreeItem, 'path' | 'name' | 'type'>;

/**
 * The items chosen in a snapshot tree, by path; `onChange` hears each new choice. `initial` is what each opening
 * starts with (a file's history: that file).
 */
export function useChosenItems(onChange?: (items: ChosenItem[]) => void, initial: readonly SnapshotTreeItem[] = []) {
  const start = () => new Map(initial.map((item) => [item.path, item]));
  const [chosen, setChosen] = useState<ReadonlyMap<string, SnapshotTreeItem>>(start);
  const itemsOf = (map: ReadonlyMap<string, SnapshotTreeItem>): ChosenItem[] =>
    [...map.values()].map(({ path, name, type }) => ({ path, name, type }));
  const toggle = (item: SnapshotTreeItem, on: boolean) => {
    const next = new Map(chosen);
    if (on) next.set(item.path, item);
    else next.delete(item.path);
    setChosen(next);
    onChange?.(itemsOf(next));
  };
  return { chosen, toggle, items: itemsOf(chosen), reset: () => setChosen(start()) };
}

export interface ItemsDialogProps extends Omit<FormModalProps, 'size' | 'children'> {
  run: RunRef;
  allLabel: string;
  all: boolean;
  onAllChange: (all: boolean) => void;
  /** The tree's choice (useChosenItems); cleared when the dialog has closed. */
  choice: Pick<ReturnType<typeof useChosenItems>, 'chosen' | 'toggle' | 'reset'>;
  itemsError: string | null | undefined;
  /** The submission's global errors (useDialogSubmit); cleared when the dialog has closed. */
  submission: { globalErrors: readonly ServerMessage[]; clearErrors: () => void };
  /** What the dialog asks besides the items. */
  children?: ReactNode;
}

/**
 * The download and restore dialogs' common frame: an 'all items' switch, the snapshot's tree (loaded while the
 * dialog shows, disabled while all items are on) and the items' message, then what the dialog asks besides and
 * the submission's global errors. The choice and the errors are cleared once the dialog has closed.
 */
export function ItemsDialog({
  run,
  allLabel,
  all,
  onAllChange,
  choice,
  itemsError,
  submission,
  children,
  onExited,
  ...modal
}: ItemsDialogProps) {
  const allId = useId();
  return (
    <FormModal
      {...modal}
      size="lg"
      onExited={() => {
        onExited?.();
        choice.reset();
        submission.clearErrors();
      }}
    >
      <Form.Check
        type="switch"
        id={allId}
        className="mb-2"
        label={allLabel}
        checked={all}
        onChange={(event) => onAllChange(event.currentTarget.checked)}
      />
      {modal.show ? <SnapshotTree run={run} chosen={choice.chosen} onToggle={choice.toggle} disabled={all} /> : null}
      {itemsError ? (
        <div className="invalid-feedback d-block" role="alert">
          {itemsError}
        </div>
      ) : null}
      {children}
      <GlobalErrors messages={submission.globalErrors} />
    </FormModal>
  );
}
