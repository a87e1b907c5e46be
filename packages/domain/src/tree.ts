import { z } from 'zod';
import { BACKUP_ITEM_TYPES, BACKUP_TYPES, type BackupItemType, type BackupType } from './enums.js';
import { compileExclusions, type ExclusionPlatform } from './exclusions.js';
import { type BackupItem, ITEM_TYPES_BY_BACKUP_TYPE } from './forms/task.js';

/**
 * The item tree of the task dialog and the download dialog (002 §3 tree item and backup item, §4.4 tree
 * selection, 001 §8 tree texts): the model, its schema, and pure state transitions the web's TreePicker
 * calls. Every transition returns a new state and re-derives the flags from one rule, so the invariants hold
 * after any sequence of actions: no item is both selected and disabled, no selected item has a selected
 * ancestor, no excluded item is selected.
 */

/**
 * A tree request (002 §7.8 localtreeitems, and its HTTP alternative POST /backupmachines/{id}/treeitems):
 * the browser's id for it, the folder to list ('' for the roots) and the kind of tree as `type`: the specification
 * names the field without its values, so either the task's backup type or the type of the item whose children are
 * asked is taken, and read as the backup type (a cPanel or DirectAdmin tree lists the panel's accounts). The other
 * fields the browser sends (local, selected, ...) describe its own state and are not needed to list.
 */
export const treeItemsRequestSchema = z.object({
  treeItemsRequestId: z.union([z.string().max(100), z.number()]).transform(String),
  path: z.string().max(4096).default(''),
  type: z
    .enum([...BACKUP_TYPES, ...BACKUP_ITEM_TYPES])
    .default('FILES_AND_FOLDERS')
    .transform(
      (type): BackupType =>
        BACKUP_TYPES.find(
          (backupType) => backupType === type || ITEM_TYPES_BY_BACKUP_TYPE[backupType].includes(type as BackupItemType),
        ) ?? 'FILES_AND_FOLDERS',
    ),
});
export type TreeItemsRequest = z.infer<typeof treeItemsRequestSchema>;

/** Texts of the tree widget (001 §8 'No items to select', 001 §9 'Loading...'). */
export const TREE_TEXTS = {
  loading: 'Loading...',
  noItems: 'No items to select',
} as const;

/**
 * One item of the machine's tree (002 §3). `value` is the item's full path on the machine (`/home/ana`,
 * `C:\Users\Ana`, `\\server\share` for a network drive) or the account name of a cPanel / DirectAdmin item;
 * `text` is what the row shows. `children` is null until the item's children are loaded (lazy loading), [] when
 * it has none. Flags:
 * - `selected`: backed up, with everything below it;
 * - `disabled`: cannot be toggled, derived: permanently disabled, excluded, or below a selected item;
 * - `excluded`: left out of the backup, by the task's exclusions or by the machine itself;
 * - `excludedByChoice`: excluded by the task's exclusions only, so removing the exclusion gives it back; an item
 *   `excluded` but not `excludedByChoice` is excluded by the machine (the agent's own data, for example) and
 *   stays excluded whatever the list says, and so do its descendants;
 * - `permanentlyDisabled`: the machine never lets it be selected;
 * - `missing`: selected in the task but no longer on the machine, shown so it can be unselected.
 */
export interface TreeItem {
  value: string;
  text: string;
  type: BackupItemType;
  selected: boolean;
  disabled: boolean;
  excluded: boolean;
  excludedByChoice: boolean;
  permanentlyDisabled: boolean;
  missing: boolean;
  hidden: boolean;
  leaf: boolean;
  opened: boolean;
  children: TreeItem[] | null;
  windowsNetworkDrive: boolean;
  icon: string | null;
}

/** The tree item as the agent sends it (002 §7.8 treeItems). */
/**
 * A tree item as the agent lists it: nothing selected or excluded, a directory's children not loaded yet and
 * anything else a leaf, a dot-name hidden; `flags` says what else holds.
 */
export function listedTreeItem(
  value: string,
  text: string,
  type: BackupItemType,
  flags: Partial<TreeItem> = {},
): TreeItem {
  const directory = type === 'DIRECTORY';
  return {
    value,
    text,
    type,
    selected: false,
    disabled: false,
    excluded: false,
    excludedByChoice: false,
    permanentlyDisabled: false,
    missing: false,
    hidden: text.startsWith('.'),
    leaf: !directory,
    opened: false,
    children: directory ? null : [],
    windowsNetworkDrive: false,
    icon: null,
    ...flags,
  };
}

export const treeItemSchema: z.ZodType<TreeItem> = z.lazy(() =>
  z.object({
    value: z.string().min(1),
    text: z.string(),
    type: z.enum(BACKUP_ITEM_TYPES),
    selected: z.boolean(),
    disabled: z.boolean(),
    excluded: z.boolean(),
    excludedByChoice: z.boolean(),
    permanentlyDisabled: z.boolean(),
    missing: z.boolean(),
    hidden: z.boolean(),
    leaf: z.boolean(),
    opened: z.boolean(),
    children: z.array(treeItemSchema).nullable(),
    windowsNetworkDrive: z.boolean(),
    icon: z.string().nullable(),
  }),
);

/**
 * The tree as a dialog holds it. `pendingSelection` keeps the task's selected items whose place in the tree is
 * not loaded yet (a folder not opened), so editing a task and saving it without opening every folder keeps them.
 */
export interface TreeState {
  readonly platform: ExclusionPlatform;
  readonly exclusions: readonly string[];
  readonly items: readonly TreeItem[];
  readonly firstLoadFinished: boolean;
  readonly pendingSelection: readonly BackupItem[];
}

/** Which rows the dialog shows: its 'show files' and 'hidden' checkboxes (002 §4.3). */
export interface TreeVisibility {
  showFiles: boolean;
  showHidden: boolean;
}
const SHOW_ALL: TreeVisibility = { showFiles: true, showHidden: true };

// ---------------------------------------------------------------------------------------------------------
// Paths

const separatorOf = (platform: ExclusionPlatform) => (platform === 'WINDOWS' ? '\\' : '/');

/** A path in one spelling: `\` on Windows (either separator accepted), no trailing separator but at a root. */
function canonical(path: string, platform: ExclusionPlatform): string {
  const p = platform === 'WINDOWS' ? path.replace(/\//g, '\\').toLowerCase() : path;
  const trimmed = p.replace(platform === 'WINDOWS' ? /\\+$/ : /\/+$/, '');
  return trimmed === '' || /^[a-z]:$/.test(trimmed) ? p : trimmed;
}

/** Whether two values name the same item: paths compare case-insensitively on Windows. */
export function samePath(a: string, b: string, platform: ExclusionPlatform): boolean {
  return canonical(a, platform) === canonical(b, platform);
}

/** Whether `ancestor` is a proper ancestor of `path`. */
export function isAncestorPath(ancestor: string, path: string, platform: ExclusionPlatform): boolean {
  const a = canonical(ancestor, platform);
  const p = canonical(path, platform);
  const separator = separatorOf(platform);
  const prefix = a.endsWith(separator) ? a : a + separator;
  return p !== a && p.startsWith(prefix);
}

const isPathItem = (item: { type: BackupItemType }) => item.type === 'DIRECTORY' || item.type === 'FILE';

// ---------------------------------------------------------------------------------------------------------
// Walking

function mapItems(items: readonly TreeItem[], fn: (item: TreeItem) => TreeItem): TreeItem[] {
  return items.map((item) => {
    const mapped = fn(item);
    return mapped.children === null ? mapped : { ...mapped, children: mapItems(mapped.children, fn) };
  });
}

function* walk(items: readonly TreeItem[]): Generator<TreeItem> {
  for (const item of items) {
    yield item;
    if (item.children !== null) yield* walk(item.children);
  }
}

/** The item with this value among the loaded items, if any. */
export function findTreeItem(state: TreeState, value: string): TreeItem | undefined {
  for (const item of walk(state.items)) if (samePath(item.value, value, state.platform)) return item;
  return undefined;
}

/** Replaces the item with this value (the first found) by `fn(item)`; unchanged when it is not loaded. */
function updateItem(state: TreeState, value: string, fn: (item: TreeItem) => TreeItem): TreeState {
  let done = false;
  const visit = (items: readonly TreeItem[]): TreeItem[] =>
    items.map((item) => {
      if (done) return item;
      if (samePath(item.value, value, state.platform)) {
        done = true;
        return fn(item);
      }
      return item.children === null ? item : { ...item, children: visit(item.children) };
    });
  const items = visit(state.items);
  return done ? { ...state, items } : state;
}

// ---------------------------------------------------------------------------------------------------------
// The one rule

/**
 * Re-derives every flag from the selection, the exclusions and the machine's own flags (002 §4.4):
 * - an item is excluded when the machine excludes it or one of its ancestors, or the task's exclusions match
 *   it (a matched directory covers everything below it, see exclusions.ts);
 * - an excluded or permanently disabled item, or one below a selected item, is not selected ('Selecting a
 *   folder unselects and disables its children'; 'Excluded items become disabled and not selected');
 * - disabled means exactly one of those reasons holds, so removing an exclusion or unselecting the folder
 *   re-enables an item unless another reason remains.
 * Pending selections that became impossible (excluded, or below a selected, pending or machine-excluded item)
 * go.
 */
function normalise(state: TreeState): TreeState {
  const matcher = compileExclusions(state.exclusions, state.platform);
  const covering: string[] = [];
  const visit = (items: readonly TreeItem[], ancestorSelected: boolean, ancestorSystem: boolean): TreeItem[] =>
    items.map((item) => {
      const system = ancestorSystem || (item.excluded && !item.excludedByChoice);
      const byList = isPathItem(item) && matcher.excludes(item.value);
      const excluded = system || byList;
      const selected = item.selected && !excluded && !item.permanentlyDisabled && !ancestorSelected;
      if (selected || system) covering.push(item.value);
      return {
        ...item,
        selected,
        excluded,
        excludedByChoice: byList && !system,
        disabled: item.permanentlyDisabled || excluded || ancestorSelected,
        children: item.children === null ? null : visit(item.children, ancestorSelected || selected, system),
      };
    });
  const items = visit(state.items, false, false);
  const covered = (path: string) =>
    covering.some((value) => isAncestorPath(value, path, state.platform)) ||
    state.pendingSelection.some((other) => isAncestorPath(other.path, path, state.platform));
  const pendingSelection = state.pendingSelection.filter(
    (pending) => !(isPathItem(pending) && matcher.excludes(pending.path)) && !covered(pending.path),
  );
  return { ...state, items, pendingSelection };
}

// ---------------------------------------------------------------------------------------------------------
// Loading

/** A selected item the machine no longer has (or that is missing where it should be in the loaded tree). */
function missingItem(item: BackupItem): TreeItem {
  return {
    value: item.path,
    text: item.name,
    type: item.type,
    selected: true,
    disabled: false,
    excluded: false,
    excludedByChoice: false,
    permanentlyDisabled: false,
    missing: true,
    hidden: false,
    leaf: true,
    opened: false,
    children: [],
    windowsNetworkDrive: false,
    icon: null,
  };
}

const hasSelection = (item: TreeItem): boolean => [...walk([item])].some((i) => i.selected);
const markMissing = (item: TreeItem): TreeItem => mapItems([item], (i) => ({ ...i, missing: true }))[0] ?? item;

/**
 * Merges a freshly loaded list into the items it replaces: an item loaded before keeps its selection, its
 * opened state and its loaded children (the machine's flags and text are taken from the new list); a new item
 * keeps the selection the machine reports (it was asked with the selected paths); an item that vanished stays,
 * marked missing, only when it or something below it is selected, so the user sees what the task loses.
 */
function mergeList(
  previous: readonly TreeItem[],
  incoming: readonly TreeItem[],
  platform: ExclusionPlatform,
): TreeItem[] {
  const merged = incoming.map((item) => {
    const old = previous.find((p) => samePath(p.value, item.value, platform));
    if (old === undefined) return item;
    const children = item.children === null ? old.children : mergeList(old.children ?? [], item.children, platform);
    return { ...item, selected: old.selected, opened: old.opened, children };
  });
  const vanished = previous.filter(
    (old) => hasSelection(old) && !incoming.some((item) => samePath(item.value, old.value, platform)),
  );
  return [...merged, ...vanished.map(markMissing)];
}

/**
 * Puts pending selections into the loaded tree: an item that is loaded is selected; one whose parent's
 * children are loaded (or that would be a top-level item once the first load finished) but that is not there
 * is added as a missing item under its nearest loaded ancestor; the others wait for their folder to load.
 */
function placePending(state: TreeState): TreeState {
  let next = state;
  const waiting: BackupItem[] = [];
  for (const pending of state.pendingSelection) {
    if (findTreeItem(next, pending.path) !== undefined) {
      next = updateItem(next, pending.path, (item) => ({ ...item, selected: true }));
      continue;
    }
    let nearest: TreeItem | undefined;
    for (const item of walk(next.items)) {
      if (isAncestorPath(item.value, pending.path, state.platform)) nearest = item;
    }
    if (nearest === undefined) {
      if (next.firstLoadFinished) next = { ...next, items: [...next.items, missingItem(pending)] };
      else waiting.push(pending);
    } else if (nearest.children === null && !nearest.leaf) {
      waiting.push(pending);
    } else {
      next = updateItem(next, nearest.value, (item) => ({
        ...item,
        children: [...(item.children ?? []), missingItem(pending)],
      }));
    }
  }
  return { ...next, pendingSelection: waiting };
}

const settle = (state: TreeState) => normalise(placePending(normalise(state)));

/**
 * A tree waiting for its first load ('Loading...'), with the task's exclusions and, when editing a task, its
 * saved selection, which is restored as the items arrive.
 */
export function createTreeState(options: {
  platform: ExclusionPlatform;
  exclusions?: readonly string[];
  selection?: readonly BackupItem[];
}): TreeState {
  return {
    platform: options.platform,
    exclusions: options.exclusions ?? [],
    items: [],
    firstLoadFinished: false,
    pendingSelection: dedupe(options.selection ?? [], options.platform),
  };
}

function dedupe(items: readonly BackupItem[], platform: ExclusionPlatform): BackupItem[] {
  return items.filter((item, i) => items.findIndex((other) => samePath(other.path, item.path, platform)) === i);
}

/**
 * The top-level items arrived (the first load finished, or a reload): merged with what was shown before. After
 * a time-out the dialog passes [] and the tree shows 'No items to select' (002 §8.3).
 */
export function setRootItems(state: TreeState, items: readonly TreeItem[]): TreeState {
  return settle({ ...state, items: mergeList(state.items, items, state.platform), firstLoadFinished: true });
}

/**
 * The children of one folder arrived (lazy loading): merged into the tree keeping the existing selection and
 * exclusion state consistent; below a selected folder they arrive unselected and disabled, matched by an
 * exclusion they arrive excluded. A reply for a folder no longer in the tree is ignored.
 */
export function mergeChildren(state: TreeState, parentValue: string, children: readonly TreeItem[]): TreeState {
  if (findTreeItem(state, parentValue) === undefined) return state;
  const updated = updateItem(state, parentValue, (parent) => ({
    ...parent,
    children: mergeList(parent.children ?? [], children, state.platform),
  }));
  return settle(updated);
}

/** Opens or closes a folder row (kept across reloads). */
export function setItemOpened(state: TreeState, value: string, opened: boolean): TreeState {
  return updateItem(state, value, (item) => ({ ...item, opened }));
}

// ---------------------------------------------------------------------------------------------------------
// Selection

/**
 * Selects an item (002 §4.4): its descendants become unselected and disabled, and selections waiting below it
 * are dropped. A disabled item (excluded, permanently disabled, below a selected folder) cannot be selected.
 */
export function selectItem(state: TreeState, value: string): TreeState {
  const item = findTreeItem(state, value);
  if (item === undefined || item.disabled) return state;
  return normalise(updateItem(state, value, (i) => ({ ...i, selected: true })));
}

/** Unselects an item; its descendants are enabled again unless disabled for another reason (002 §4.4). */
export function unselectItem(state: TreeState, value: string): TreeState {
  const item = findTreeItem(state, value);
  if (item === undefined || item.disabled) return state;
  return normalise(updateItem(state, value, (i) => ({ ...i, selected: false })));
}

/** A click on an item's checkbox. */
export function toggleItem(state: TreeState, value: string): TreeState {
  return findTreeItem(state, value)?.selected ? unselectItem(state, value) : selectItem(state, value);
}

/**
 * 'Select all' and 'Unselect all' work only after the first load has finished (002 §4.4); we also keep them
 * off while the tree is empty, where they would do nothing.
 */
export function selectAllAvailable(state: TreeState): boolean {
  return state.firstLoadFinished && state.items.length > 0;
}

/** Whether a row is shown under the dialog's 'show files' and 'hidden' checkboxes. */
export function isItemShown(item: TreeItem, visibility: TreeVisibility = SHOW_ALL): boolean {
  return (visibility.showHidden || !item.hidden) && (visibility.showFiles || item.type !== 'FILE');
}

/**
 * 'Select all' (002 §4.4): selects every shown top-level item that can be selected (which disables what is
 * below it); below a permanently disabled item that is not excluded (a 'This PC'-like container) it selects
 * the loaded children instead. Missing items are left as they are. Does nothing before the first load.
 */
export function selectAll(state: TreeState, visibility: TreeVisibility = SHOW_ALL): TreeState {
  if (!selectAllAvailable(state)) return state;
  const visit = (items: readonly TreeItem[]): TreeItem[] =>
    items.map((item) => {
      if (!isItemShown(item, visibility) || item.missing) return item;
      if (!item.disabled) return { ...item, selected: true };
      if (item.permanentlyDisabled && !item.excluded && item.children !== null) {
        return { ...item, children: visit(item.children) };
      }
      return item;
    });
  return normalise({ ...state, items: visit(state.items) });
}

/** 'Unselect all' (002 §4.4): nothing stays selected, not even items still waiting for their folder to load. */
export function unselectAll(state: TreeState): TreeState {
  if (!selectAllAvailable(state)) return state;
  return normalise({
    ...state,
    items: mapItems(state.items, (item) => ({ ...item, selected: false })),
    pendingSelection: [],
  });
}

/**
 * Applies a new exclusion list (002 §4.4): matched items become excluded, disabled and unselected; items no
 * longer matched are enabled again unless disabled for another reason. Invalid entries are not applied (the
 * exclusions form shows their message).
 */
export function setExclusions(state: TreeState, exclusions: readonly string[]): TreeState {
  return normalise({ ...state, exclusions: [...exclusions] });
}

// ---------------------------------------------------------------------------------------------------------
// Task backup items

/**
 * The task's backupItems (002 §3) from the tree: every selected item in tree order (never one below another
 * selected item), then the saved selections whose folder was not opened, unchanged.
 */
export function toBackupItems(state: TreeState): BackupItem[] {
  const selected = [...walk(state.items)]
    .filter((item) => item.selected)
    .map((item) => ({ path: item.value, name: item.text, type: item.type, missing: item.missing }));
  return [...selected, ...state.pendingSelection];
}

/**
 * Restores a task's saved selection when editing it: replaces the current selection with `items`; loaded items
 * are selected, items whose place is loaded but that are not there are shown as missing, the others are kept
 * until their folder loads (and are still part of toBackupItems meanwhile).
 */
export function restoreSelection(state: TreeState, items: readonly BackupItem[]): TreeState {
  return settle({
    ...state,
    items: mapItems(state.items, (item) => ({ ...item, selected: false })),
    pendingSelection: dedupe(items, state.platform),
  });
}

/**
 * The text shown instead of rows: 'Loading...' until the first load finished, 'No items to select' when no
 * row is shown (001 §8), otherwise null.
 */
export function treeEmptyText(state: TreeState, visibility: TreeVisibility = SHOW_ALL): string | null {
  if (!state.firstLoadFinished) return TREE_TEXTS.loading;
  return state.items.some((item) => isItemShown(item, visibility)) ? null : TREE_TEXTS.noItems;
}
