import { MESSAGES, ROUTES, type SnapshotTreeItem } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { getResult, routeCall } from '../../../app/api';
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

/** The items chosen in a snapshot tree, by path; `onChange` hears each new choice. */
export function useChosenItems(onChange?: (items: ChosenItem[]) => void) {
  const [chosen, setChosen] = useState<ReadonlyMap<string, SnapshotTreeItem>>(new Map());
  const itemsOf = (map: ReadonlyMap<string, SnapshotTreeItem>): ChosenItem[] =>
    [...map.values()].map(({ path, name, type }) => ({ path, name, type }));
  const toggle = (item: SnapshotTreeItem, on: boolean) => {
    const next = new Map(chosen);
    if (on) next.set(item.path, item);
    else next.delete(item.path);
    setChosen(next);
    onChange?.(itemsOf(next));
  };
  return { chosen, toggle, items: itemsOf(chosen), reset: () => setChosen(new Map()) };
}

/**
 * The items part of the download and restore dialogs: an 'all items' switch, the snapshot's tree (loaded while the
 * dialog shows, disabled while all items are on) and the items' message.
 */
export function ItemsChoice({
  run,
  show,
  allLabel,
  all,
  onAllChange,
  chosen,
  onToggle,
  error,
}: {
  run: RunRef;
  show: boolean;
  allLabel: string;
  all: boolean;
  onAllChange: (all: boolean) => void;
  chosen: ReadonlyMap<string, SnapshotTreeItem>;
  onToggle: (item: SnapshotTreeItem, on: boolean) => void;
  error: string | null | undefined;
}) {
  const allId = useId();
  return (
    <>
      <Form.Check
        type="switch"
        id={allId}
        className="mb-2"
        label={allLabel}
        checked={all}
        onChange={(event) => onAllChange(event.currentTarget.checked)}
      />
      {show ? <SnapshotTree run={run} chosen={chosen} onToggle={onToggle} disabled={all} /> : null}
      {error ? (
        <div className="invalid-feedback d-block" role="alert">
          {error}
        </div>
      ) : null}
    </>
  );
}
