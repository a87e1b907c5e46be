import {
  isItemShown,
  selectAllAvailable,
  type TreeItem,
  type TreeState,
  type TreeVisibility,
  treeEmptyText,
} from '@portal/domain';
import { useEffect, useId, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';

/** 002 §4.4: tree rows are 24 high. */
export const TREE_ROW_HEIGHT = 24;
/** Ours: clicks on one checkbox within this time count as one change (a double click does nothing). */
export const TREE_TOGGLE_DEBOUNCE_MS = 250;

export interface TreePickerProps {
  state: TreeState;
  visibility: TreeVisibility;
  /** A checkbox's net change once its clicks settled (TREE_TOGGLE_DEBOUNCE_MS). */
  onToggle: (value: string) => void;
  /** A folder row opened or closed; the owner loads its children when they are not loaded yet. */
  onOpen: (item: TreeItem, opened: boolean) => void;
  onSelectAll?: () => void;
  onUnselectAll?: () => void;
  /** Folders whose children are being loaded: they show 'Loading...'. */
  loading?: ReadonlySet<string>;
  loadingText?: string;
  label?: string;
  /** Whether the 'Select all' and 'Unselect all' buttons show (a single-choice tree has none). */
  bulkActions?: boolean;
  /** 'one': a single choice, each row a radio button of one group (a target folder); 'many' (default): checkboxes. */
  choice?: 'one' | 'many';
}

/**
 * The item tree (002 §3 tree item, §4.4): rows 24 high, folders opened lazily by the owner, a checkbox per row
 * (disabled when the domain says so: excluded, below a selected folder, or never selectable), missing and
 * excluded items marked. 'Select all' and 'Unselect all' work only after the first load. The selection rules
 * themselves are the domain's tree transitions, which the owner applies. A single-choice tree has radio buttons
 * instead, reported at once (a radio clicked again changes nothing, so there is nothing to debounce).
 */
export function TreePicker({
  state,
  visibility,
  onToggle,
  onOpen,
  onSelectAll,
  onUnselectAll,
  loading = new Set(),
  loadingText = 'Loading...',
  label = 'Items',
  bulkActions = true,
  choice = 'many',
}: TreePickerProps) {
  const clicks = useDebouncedToggles(onToggle);
  const idPrefix = useId();
  const empty = treeEmptyText(state, visibility);
  const bulk = selectAllAvailable(state);
  return (
    <div data-testid="tree-picker">
      {bulkActions && (
        <div className="d-flex gap-2 mb-1">
          <Button size="sm" variant="outline-secondary" disabled={!bulk} onClick={onSelectAll}>
            Select all
          </Button>
          <Button size="sm" variant="outline-secondary" disabled={!bulk} onClick={onUnselectAll}>
            Unselect all
          </Button>
        </div>
      )}
      <fieldset
        aria-label={label}
        data-testid="tree"
        className="border rounded overflow-auto px-1"
        style={{ maxHeight: TREE_ROW_HEIGHT * 12, minHeight: TREE_ROW_HEIGHT * 2 }}
      >
        {empty !== null ? (
          <div className="text-muted small" style={{ lineHeight: `${TREE_ROW_HEIGHT}px` }} data-testid="tree-empty">
            {empty}
          </div>
        ) : (
          <TreeRows
            items={state.items}
            depth={0}
            tree={{ idPrefix, visibility, clicks, onOpen, loading, loadingText, single: choice === 'one', onToggle }}
          />
        )}
      </fieldset>
    </div>
  );
}

interface Clicks {
  pending: ReadonlyMap<string, number>;
  click: (value: string) => void;
}

/** Counts clicks per item and reports the odd counts once no click came for TREE_TOGGLE_DEBOUNCE_MS. */
function useDebouncedToggles(onToggle: (value: string) => void): Clicks {
  const [pending, setPending] = useState<ReadonlyMap<string, number>>(new Map());
  const latest = useRef(onToggle);
  latest.current = onToggle;
  useEffect(() => {
    if (pending.size === 0) return;
    const timer = setTimeout(() => {
      for (const [value, count] of pending) if (count % 2 === 1) latest.current(value);
      setPending(new Map());
    }, TREE_TOGGLE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  return {
    pending,
    click: (value) => setPending((current) => new Map(current).set(value, (current.get(value) ?? 0) + 1)),
  };
}

/** What every level of the tree's rows shares. */
interface TreeRowsContext {
  idPrefix: string;
  visibility: TreeVisibility;
  clicks: Clicks;
  onOpen: (item: TreeItem, opened: boolean) => void;
  loading: ReadonlySet<string>;
  loadingText: string;
  /** Radio buttons of one group, each change reported at once through onToggle. */
  single: boolean;
  onToggle: (value: string) => void;
}

function TreeRows({ items, depth, tree }: { items: readonly TreeItem[]; depth: number; tree: TreeRowsContext }) {
  const { idPrefix, visibility, clicks, onOpen, loading, loadingText, single, onToggle } = tree;
  return (
    <ul className="list-unstyled m-0">
      {items
        .filter((item) => isItemShown(item, visibility))
        .map((item) => {
          const flips = (clicks.pending.get(item.value) ?? 0) % 2 === 1;
          const checked = item.selected !== flips;
          return (
            <li key={item.value}>
              <div
                className="d-flex align-items-center gap-1 text-nowrap"
                style={{ height: TREE_ROW_HEIGHT, paddingLeft: depth * 16 }}
                data-testid="tree-row"
              >
                {item.leaf ? (
                  <span style={{ width: 20 }} />
                ) : (
                  <button
                    type="button"
                    className="btn btn-link btn-sm p-0 text-decoration-none"
                    style={{ width: 20, lineHeight: 1 }}
                    aria-label={`${item.opened ? 'Close' : 'Open'} ${item.text}`}
                    onClick={() => onOpen(item, !item.opened)}
                  >
                    {item.opened ? '▾' : '▸'}
                  </button>
                )}
                <input
                  type={single ? 'radio' : 'checkbox'}
                  className="form-check-input m-0"
                  id={`${idPrefix}${item.value}`}
                  {...(single ? { name: idPrefix } : {})}
                  checked={single ? item.selected : checked}
                  disabled={item.disabled}
                  onChange={() => (single ? onToggle(item.value) : clicks.click(item.value))}
                />
                <label
                  htmlFor={`${idPrefix}${item.value}`}
                  className={item.excluded || item.missing ? 'text-decoration-line-through text-muted' : undefined}
                >
                  {item.text}
                </label>
                {item.missing && (
                  <Badge bg="warning" text="dark">
                    missing
                  </Badge>
                )}
                {item.excluded && <Badge bg="secondary">excluded</Badge>}
              </div>
              {item.opened && loading.has(item.value) && (
                <div
                  className="text-muted small"
                  style={{ height: TREE_ROW_HEIGHT, paddingLeft: (depth + 1) * 16 + 20 }}
                >
                  {loadingText}
                </div>
              )}
              {item.opened && item.children !== null && (
                <TreeRows items={item.children} depth={depth + 1} tree={tree} />
              )}
            </li>
          );
        })}
    </ul>
  );
}
