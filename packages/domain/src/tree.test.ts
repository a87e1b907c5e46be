import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileExclusions, exclusionForPath } from './exclusions.js';
import type { BackupItem } from './forms/task.js';
import { createRandom, generateTree } from './testing/random-tree.js';
import { file, folder, machineTree, oneLevel, treeItem } from './testing/tree-items.js';
import {
  createTreeState,
  findTreeItem,
  isAncestorPath,
  isItemShown,
  mergeChildren,
  restoreSelection,
  samePath,
  selectAll,
  selectAllAvailable,
  selectItem,
  setExclusions,
  setItemOpened,
  setRootItems,
  TREE_TEXTS,
  type TreeItem,
  type TreeState,
  toBackupItems,
  toggleItem,
  treeEmptyText,
  treeItemSchema,
  unselectAll,
  unselectItem,
} from './tree.js';

/** /home with ana (docs/a.txt, docs/b.log, .cache/x) and bob (loaded), /etc not loaded yet. */
const HOME = () => [
  folder('/home', [
    folder('/home/ana', [
      folder('/home/ana/docs', [file('/home/ana/docs/a.txt'), file('/home/ana/docs/b.log')]),
      folder('/home/ana/.cache', [file('/home/ana/.cache/x')], { hidden: true }),
    ]),
    folder('/home/bob', []),
  ]),
  treeItem('/etc'),
];

const loaded = (items: TreeItem[] = HOME(), exclusions: string[] = []) =>
  setRootItems(createTreeState({ platform: 'UNIX', exclusions }), items);
const get = (state: TreeState, value: string) => {
  const item = findTreeItem(state, value);
  if (item === undefined) throw new Error(`no ${value}`);
  return item;
};
const flags = (state: TreeState, value: string) => {
  const { selected, disabled, excluded, excludedByChoice, missing } = get(state, value);
  return { selected, disabled, excluded, excludedByChoice, missing };
};
const paths = (items: BackupItem[]) => items.map((item) => item.path).sort();

describe('tree item and backup item shapes (002 §3)', () => {
  it('parses a nested tree as the agent sends it and rejects a wrong type', () => {
    const tree = folder('/home', [file('/home/a.txt'), treeItem('/home/ana', { icon: 'folder' })]);
    expect(treeItemSchema.parse(tree)).toEqual(tree);
    expect(treeItemSchema.safeParse({ ...tree, children: [{ ...file('/x'), type: 'DISK' }] }).success).toBe(false);
    expect(treeItemSchema.safeParse({ ...tree, value: '' }).success).toBe(false);
  });
});

describe('tree texts (001 §8, §9)', () => {
  it("shows 'Loading...' until the first load, then 'No items to select' for an empty tree", () => {
    const state = createTreeState({ platform: 'UNIX' });
    expect(treeEmptyText(state)).toBe(TREE_TEXTS.loading);
    expect(TREE_TEXTS).toEqual({ loading: 'Loading...', noItems: 'No items to select' });
    expect(treeEmptyText(setRootItems(state, []))).toBe('No items to select');
    expect(treeEmptyText(loaded())).toBeNull();
  });

  it("says 'No items to select' when every row is hidden by the show files / hidden checkboxes", () => {
    const state = loaded([file('/a.txt'), treeItem('/.git', { hidden: true })]);
    expect(treeEmptyText(state, { showFiles: false, showHidden: false })).toBe(TREE_TEXTS.noItems);
    expect(treeEmptyText(state, { showFiles: true, showHidden: false })).toBeNull();
    expect(isItemShown(get(state, '/.git'), { showFiles: true, showHidden: true })).toBe(true);
  });
});

describe('tree selection (002 §4.4)', () => {
  it('selecting a folder unselects and disables its children and their descendants', () => {
    let state = selectItem(loaded(), '/home/ana/docs/a.txt');
    state = selectItem(state, '/home/ana/.cache');
    state = selectItem(state, '/home');
    expect(flags(state, '/home')).toMatchObject({ selected: true, disabled: false });
    for (const below of ['/home/ana', '/home/ana/docs/a.txt', '/home/ana/.cache', '/home/ana/.cache/x']) {
      expect(flags(state, below), below).toMatchObject({ selected: false, disabled: true });
    }
    expect(paths(toBackupItems(state))).toEqual(['/home']);
  });

  it('unselecting the folder re-enables them, still unselected', () => {
    const state = unselectItem(selectItem(loaded(), '/home'), '/home');
    for (const value of ['/home', '/home/ana', '/home/ana/docs/a.txt']) {
      expect(flags(state, value), value).toMatchObject({ selected: false, disabled: false });
    }
    expect(toBackupItems(state)).toEqual([]);
  });

  it('ignores clicks on disabled and unknown items, and toggles enabled ones', () => {
    const selected = selectItem(loaded(), '/home');
    expect(selectItem(selected, '/home/ana')).toBe(selected);
    expect(unselectItem(selected, '/home/ana')).toBe(selected);
    expect(selectItem(selected, '/nowhere')).toBe(selected);
    expect(flags(toggleItem(selected, '/home'), '/home').selected).toBe(false);
    expect(flags(toggleItem(loaded(), '/etc'), '/etc').selected).toBe(true);
  });

  it('never selects a permanently disabled item', () => {
    const state = loaded([treeItem('/proc', { permanentlyDisabled: true, selected: true })]);
    expect(flags(state, '/proc')).toMatchObject({ selected: false, disabled: true });
    expect(selectItem(state, '/proc')).toBe(state);
  });

  it('opens and closes a folder row', () => {
    const state = setItemOpened(loaded(), '/home/ana', true);
    expect(get(state, '/home/ana').opened).toBe(true);
    expect(setItemOpened(state, '/missing', true)).toBe(state);
  });
});

describe('exclusions in the tree (002 §4.4, §5.7)', () => {
  it('makes excluded items disabled and not selected, below the match too', () => {
    let state = selectItem(selectItem(loaded(), '/home/ana/docs/a.txt'), '/home/ana/.cache');
    state = setExclusions(state, ['*.txt', '.cache']);
    expect(flags(state, '/home/ana/docs/a.txt')).toEqual({
      selected: false,
      disabled: true,
      excluded: true,
      excludedByChoice: true,
      missing: false,
    });
    expect(flags(state, '/home/ana/.cache/x')).toMatchObject({ excluded: true, disabled: true });
    expect(flags(state, '/home/ana/docs/b.log')).toMatchObject({ excluded: false, disabled: false });
    expect(toBackupItems(state)).toEqual([]);
  });

  it('re-enables items when the exclusion is removed, unless disabled for another reason', () => {
    let state = loaded([
      folder('/data', [file('/data/a.tmp'), file('/data/b.tmp', { permanentlyDisabled: true })]),
      folder('/srv', [file('/srv/c.tmp')]),
    ]);
    state = selectItem(setExclusions(state, ['*.tmp']), '/srv');
    state = setExclusions(state, []);
    expect(flags(state, '/data/a.tmp')).toMatchObject({ excluded: false, disabled: false, selected: false });
    expect(flags(state, '/data/b.tmp')).toMatchObject({ excluded: false, disabled: true });
    expect(flags(state, '/srv/c.tmp')).toMatchObject({ excluded: false, disabled: true });
  });

  it('keeps what the machine excludes excluded, whatever the list says', () => {
    let state = loaded([folder('/agent', [file('/agent/db')], { excluded: true, permanentlyDisabled: true })]);
    expect(flags(state, '/agent/db')).toMatchObject({ excluded: true, excludedByChoice: false, disabled: true });
    state = setExclusions(setExclusions(state, ['agent']), []);
    expect(flags(state, '/agent')).toMatchObject({ excluded: true, excludedByChoice: false, disabled: true });
  });

  it('does not apply file exclusions to cPanel accounts, nor invalid exclusions', () => {
    const state = loaded([treeItem('alice', { type: 'CPANEL_ACCOUNT', leaf: true, children: [] })], ['alice', '[x]']);
    expect(flags(state, 'alice')).toMatchObject({ excluded: false, disabled: false });
  });

  it('matches Windows paths case-insensitively', () => {
    const state = setRootItems(createTreeState({ platform: 'WINDOWS', exclusions: ['c:\\users\\*\\appdata'] }), [
      folder('C:\\Users', [folder('C:\\Users\\Ana', [treeItem('C:\\Users\\Ana\\AppData')])]),
    ]);
    expect(flags(state, 'C:\\Users\\Ana\\AppData').excluded).toBe(true);
    expect(flags(state, 'c:/users/ana').excluded).toBe(false);
  });
});

describe("'Select all' and 'Unselect all' (002 §4.4)", () => {
  it('work only after the first load has finished (and with something to select)', () => {
    const loading = createTreeState({ platform: 'UNIX' });
    expect(selectAllAvailable(loading)).toBe(false);
    expect(selectAll(loading)).toBe(loading);
    expect(unselectAll(loading)).toBe(loading);
    expect(selectAllAvailable(setRootItems(loading, []))).toBe(false);
    expect(selectAllAvailable(loaded())).toBe(true);
  });

  it('selects every selectable top-level item, which disables what is below', () => {
    const state = selectAll(loaded([...HOME(), treeItem('/proc', { permanentlyDisabled: true })], ['etc']));
    expect(paths(toBackupItems(state))).toEqual(['/home']);
    expect(flags(state, '/home/ana').disabled).toBe(true);
  });

  it('selects the children of a permanently disabled container and skips rows not shown', () => {
    const state = selectAll(
      loaded([
        folder('This PC', [treeItem('C:'), treeItem('D:', { hidden: true })], { permanentlyDisabled: true }),
        file('/top.txt'),
      ]),
      { showFiles: false, showHidden: false },
    );
    expect(paths(toBackupItems(state))).toEqual(['C:']);
  });

  it('unselects everything, including selections waiting for their folder', () => {
    const selection = [{ path: '/etc/hosts', name: 'hosts', type: 'FILE', missing: false }] as const;
    let state = setRootItems(createTreeState({ platform: 'UNIX', selection: [...selection] }), HOME());
    state = selectItem(state, '/home/ana');
    expect(paths(toBackupItems(state))).toEqual(['/etc/hosts', '/home/ana']);
    expect(toBackupItems(unselectAll(state))).toEqual([]);
  });
});

describe('lazy children (002 §4.4, §7.8)', () => {
  it('gives children loaded below a selected folder the folder state: unselected and disabled', () => {
    let state = selectItem(loaded(), '/etc');
    state = mergeChildren(state, '/etc', [file('/etc/hosts', { selected: true }), treeItem('/etc/ssl')]);
    expect(flags(state, '/etc/hosts')).toMatchObject({ selected: false, disabled: true });
    expect(paths(toBackupItems(state))).toEqual(['/etc']);
  });

  it('excludes loaded children matched by the exclusions', () => {
    const state = mergeChildren(loaded(HOME(), ['ssl']), '/etc', [treeItem('/etc/ssl'), file('/etc/hosts')]);
    expect(flags(state, '/etc/ssl')).toMatchObject({ excluded: true, disabled: true });
    expect(flags(state, '/etc/hosts')).toMatchObject({ excluded: false, disabled: false });
  });

  it('keeps selection, opened state and loaded grandchildren when a folder is loaded again', () => {
    let state = setItemOpened(selectItem(loaded(), '/home/ana/docs'), '/home/ana', true);
    state = selectItem(state, '/home/bob');
    state = mergeChildren(state, '/home', oneLevel([treeItem('/home/ana', { text: 'Ana' }), treeItem('/home/bob')]));
    expect(get(state, '/home/ana')).toMatchObject({ text: 'Ana', opened: true });
    expect(flags(state, '/home/bob').selected).toBe(true);
    expect(flags(state, '/home/ana/docs').selected).toBe(true);
    expect(get(state, '/home/ana/docs').children).toHaveLength(2);
  });

  it('keeps a selected child that vanished from the machine, marked missing', () => {
    let state = selectItem(loaded(), '/home/ana/docs/a.txt');
    state = mergeChildren(state, '/home/ana/docs', [file('/home/ana/docs/b.log')]);
    expect(flags(state, '/home/ana/docs/a.txt')).toMatchObject({ selected: true, missing: true, disabled: false });
    expect(toBackupItems(state)).toEqual([
      { path: '/home/ana/docs/a.txt', name: 'a.txt', type: 'FILE', missing: true },
    ]);
    state = mergeChildren(state, '/home/ana', oneLevel([treeItem('/home/ana/.cache')]));
    expect(findTreeItem(state, '/home/ana/docs/a.txt')?.missing).toBe(true);
    expect(findTreeItem(state, '/home/ana/docs')?.missing).toBe(true);
  });

  it('ignores children of a folder that is no longer in the tree', () => {
    const state = loaded();
    expect(mergeChildren(state, '/gone', [file('/gone/x')])).toBe(state);
  });
});

describe('backup items of the task (002 §3, §4.4)', () => {
  const saved: BackupItem[] = [
    { path: '/home/ana/docs', name: 'docs', type: 'DIRECTORY', missing: false },
    { path: '/home/ana/old.txt', name: 'old.txt', type: 'FILE', missing: false },
    { path: '/etc/hosts', name: 'hosts', type: 'FILE', missing: false },
    { path: '/mnt/usb', name: 'usb', type: 'DIRECTORY', missing: false },
  ];

  it('restores a saved selection: loaded items selected, items not where they should be shown missing', () => {
    const state = setRootItems(createTreeState({ platform: 'UNIX', selection: saved }), HOME());
    expect(flags(state, '/home/ana/docs')).toMatchObject({ selected: true, missing: false });
    expect(flags(state, '/home/ana/old.txt')).toMatchObject({ selected: true, missing: true });
    expect(flags(state, '/mnt/usb')).toMatchObject({ selected: true, missing: true });
    expect(findTreeItem(state, '/etc/hosts')).toBeUndefined();
    expect(state.pendingSelection).toEqual([saved[2]]);
    expect(paths(toBackupItems(state))).toEqual(paths(saved));
    const afterLoad = mergeChildren(state, '/etc', [file('/etc/hosts'), file('/etc/passwd')]);
    expect(flags(afterLoad, '/etc/hosts').selected).toBe(true);
    expect(afterLoad.pendingSelection).toEqual([]);
    expect(toBackupItems(afterLoad).find((item) => item.path === '/home/ana/old.txt')?.missing).toBe(true);
  });

  it('drops a saved item still waiting for its folder when the folder itself is selected', () => {
    const state = setRootItems(createTreeState({ platform: 'UNIX', selection: saved }), HOME());
    expect(paths(toBackupItems(selectItem(state, '/etc')))).toEqual([
      '/etc',
      '/home/ana/docs',
      '/home/ana/old.txt',
      '/mnt/usb',
    ]);
  });

  it('waits for the first load before deciding that a top-level item is missing', () => {
    const state = restoreSelection(createTreeState({ platform: 'UNIX' }), saved);
    expect(state.items).toEqual([]);
    expect(paths(toBackupItems(state))).toEqual(paths(saved));
  });

  it('replaces the current selection and drops saved items that are now excluded or below a selected one', () => {
    let state = selectItem(loaded(HOME(), ['*.txt']), '/home/bob');
    state = restoreSelection(state, [
      ...saved,
      { path: '/home/ana/docs/a.txt', name: 'a.txt', type: 'FILE', missing: false },
      { path: '/home/ana/docs', name: 'docs', type: 'DIRECTORY', missing: false },
    ]);
    expect(paths(toBackupItems(state))).toEqual(['/etc/hosts', '/home/ana/docs', '/mnt/usb']);
    expect(flags(state, '/home/bob').selected).toBe(false);
  });

  it('restores Windows selections case-insensitively and places missing ones under the nearest loaded folder', () => {
    const selection: BackupItem[] = [
      { path: 'c:\\users\\ana', name: 'Ana', type: 'DIRECTORY', missing: false },
      { path: 'C:\\Users\\Zed', name: 'Zed', type: 'DIRECTORY', missing: false },
    ];
    const state = setRootItems(createTreeState({ platform: 'WINDOWS', selection }), [
      folder('C:\\', [folder('C:\\Users', [treeItem('C:\\Users\\Ana')])]),
    ]);
    expect(flags(state, 'C:\\Users\\Ana').selected).toBe(true);
    expect(get(state, 'C:\\Users').children?.map((c) => [c.value, c.missing])).toEqual([
      ['C:\\Users\\Ana', false],
      ['C:\\Users\\Zed', true],
    ]);
  });

  it('compares paths the way the machine does', () => {
    expect(samePath('C:\\Users\\', 'c:/users', 'WINDOWS')).toBe(true);
    expect(samePath('C:\\', 'c:\\', 'WINDOWS')).toBe(true);
    expect(samePath('/Home', '/home', 'UNIX')).toBe(false);
    expect(isAncestorPath('/', '/home', 'UNIX')).toBe(true);
    expect(isAncestorPath('/home', '/home2', 'UNIX')).toBe(false);
    expect(isAncestorPath('/home', '/home', 'UNIX')).toBe(false);
    expect(isAncestorPath('C:\\', 'c:\\x', 'WINDOWS')).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties

type Op =
  | { kind: 'toggle' | 'select' | 'unselect' | 'load' | 'reload' | 'excludePath' | 'excludeName'; pick: number }
  | { kind: 'unexclude'; pick: number }
  | { kind: 'selectAll' | 'unselectAll' | 'restore' };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('toggle', 'select', 'unselect', 'load', 'reload', 'excludePath', 'excludeName'),
    pick: fc.nat(),
  }),
  fc.record({ kind: fc.constant('unexclude'), pick: fc.nat() }),
  fc.record({ kind: fc.constantFrom('selectAll', 'unselectAll', 'restore') }),
) as fc.Arbitrary<Op>;

/** Every loaded item with whether one of its ancestors is selected. */
function* withAncestors(items: readonly TreeItem[], ancestorSelected = false): Generator<[TreeItem, boolean]> {
  for (const item of items) {
    yield [item, ancestorSelected];
    if (item.children !== null) yield* withAncestors(item.children, ancestorSelected || item.selected);
  }
}

function checkInvariants(state: TreeState): void {
  const matcher = compileExclusions(state.exclusions, state.platform);
  for (const [item, ancestorSelected] of withAncestors(state.items)) {
    const at = `${item.value} (exclusions ${JSON.stringify(state.exclusions)})`;
    expect(item.selected && item.disabled, `selected and disabled: ${at}`).toBe(false);
    expect(item.selected && ancestorSelected, `selected below a selected item: ${at}`).toBe(false);
    expect(item.selected && item.excluded, `selected and excluded: ${at}`).toBe(false);
    expect(item.disabled, `disabled for no reason or enabled despite one: ${at}`).toBe(
      item.permanentlyDisabled || item.excluded || ancestorSelected,
    );
    if (matcher.excludes(item.value)) expect(item.excluded, `matched but not excluded: ${at}`).toBe(true);
    if (item.excludedByChoice) expect(matcher.excludes(item.value), `excluded by choice: ${at}`).toBe(true);
  }
  const selected = [...withAncestors(state.items)].filter(([item]) => item.selected).map(([item]) => item.value);
  for (const pending of state.pendingSelection) {
    expect(matcher.excludes(pending.path)).toBe(false);
    expect(selected.some((value) => isAncestorPath(value, pending.path, 'UNIX'))).toBe(false);
    expect(state.pendingSelection.some((other) => isAncestorPath(other.path, pending.path, 'UNIX'))).toBe(false);
  }
}

/** Runs one operation against the tree the machine has (`machine`, fully loaded). */
function apply(state: TreeState, op: Op, machine: readonly TreeItem[]): TreeState {
  const all = [...withAncestors(state.items)].map(([item]) => item);
  const pick = <T>(list: readonly T[], index: number) => list[index % Math.max(1, list.length)];
  const machineItem = (value: string) => [...withAncestors(machine)].find(([item]) => item.value === value)?.[0];
  switch (op.kind) {
    case 'toggle':
    case 'select':
    case 'unselect': {
      const item = pick(all, op.pick);
      if (item === undefined) return state;
      const fn = { toggle: toggleItem, select: selectItem, unselect: unselectItem }[op.kind];
      return fn(state, item.value);
    }
    case 'load':
    case 'reload': {
      const folders = all.filter(
        (item) => item.type === 'DIRECTORY' && (op.kind === 'reload') === (item.children !== null),
      );
      const target = pick(folders, op.pick);
      const children = target && machineItem(target.value)?.children;
      if (!target || !children) return state;
      // A reload may find one child gone from the machine.
      const now = op.kind === 'reload' ? children.filter((_, i) => i !== op.pick % (children.length + 1)) : children;
      return mergeChildren(state, target.value, oneLevel(now));
    }
    case 'excludePath':
    case 'excludeName': {
      const item = pick(all, op.pick);
      if (item === undefined) return state;
      const exclusion = op.kind === 'excludePath' ? exclusionForPath(item.value, 'UNIX') : item.text;
      return exclusion === null ? state : setExclusions(state, [...state.exclusions, exclusion]);
    }
    case 'unexclude': {
      const index = op.pick % Math.max(1, state.exclusions.length);
      return setExclusions(
        state,
        state.exclusions.filter((_, i) => i !== index),
      );
    }
    case 'selectAll':
      return selectAll(state);
    case 'unselectAll':
      return unselectAll(state);
    case 'restore':
      return restoreSelection(state, toBackupItems(state));
  }
}

const scenario = fc.record({
  seed: fc.integer(),
  saved: fc.array(fc.nat(), { maxLength: 6 }),
  ops: fc.array(opArbitrary, { maxLength: 30 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * A generated machine tree below /r, by default with a few hidden, permanently disabled and machine-excluded
 * items.
 */
function machineFor(seed: number, machineFlags = true): TreeItem[] {
  const random = createRandom(seed);
  const entries = generateTree(random, 4, 30);
  return machineTree('/r', entries, () => {
    const roll = machineFlags ? random.next() : 1;
    if (roll < 0.05) return { permanentlyDisabled: true };
    if (roll < 0.08) return { excluded: true, permanentlyDisabled: true };
    if (roll < 0.15) return { hidden: true };
    return {};
  });
}

/**
 * A task's saved selection picked from anywhere in the machine's tree, deep items included (their folders are
 * not loaded yet), possibly nested or pointing at items the machine excludes: the tree must sort it out.
 */
function savedSelection(machine: readonly TreeItem[], picks: readonly number[]): BackupItem[] {
  const all = [...withAncestors(machine)].map(([item]) => item);
  return picks.flatMap((pick) => {
    const item = all[pick % all.length];
    return item ? [{ path: item.value, name: item.text, type: item.type, missing: false }] : [];
  });
}

/** The tree of a task being edited: its saved selection, then the first level of the machine's tree. */
const opened = (machine: readonly TreeItem[], saved: readonly number[]) =>
  setRootItems(createTreeState({ platform: 'UNIX', selection: savedSelection(machine, saved) }), oneLevel(machine));

/** A generated scenario played: the task opened on its machine, then every action in turn. */
function afterActions({ seed, saved, ops }: Scenario, machineFlags = true) {
  const machine = machineFor(seed, machineFlags);
  let state = opened(machine, saved);
  for (const op of ops) state = apply(state, op, machine);
  return { machine, state };
}

describe('tree selection properties (002 §4.4, fast-check)', () => {
  it('after any sequence of actions no item is selected and disabled, below a selected item, or excluded', () => {
    fc.assert(
      fc.property(scenario, ({ seed, saved, ops }) => {
        const machine = machineFor(seed);
        let state = opened(machine, saved);
        checkInvariants(state);
        for (const op of ops) {
          state = apply(state, op, machine);
          checkInvariants(state);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('removing every exclusion re-enables all items not disabled for another reason', () => {
    fc.assert(
      fc.property(scenario, (played) => {
        const state = setExclusions(afterActions(played).state, []);
        for (const [item, ancestorSelected] of withAncestors(state.items)) {
          expect(item.excludedByChoice).toBe(false);
          expect(item.disabled).toBe(item.permanentlyDisabled || item.excluded || ancestorSelected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the backup items restore the same selection, loaded or not (edit a task, save it unchanged)', () => {
    fc.assert(
      fc.property(scenario, (played) => {
        const { machine, state } = afterActions(played);
        const items = toBackupItems(state);
        expect(new Set(items.map((item) => item.path)).size).toBe(items.length);
        const reopened = setRootItems(
          createTreeState({ platform: 'UNIX', exclusions: state.exclusions, selection: items }),
          oneLevel(machine),
        );
        expect(paths(toBackupItems(reopened))).toEqual(paths(items));
        expect(paths(toBackupItems(restoreSelection(state, items)))).toEqual(paths(items));
      }),
      { numRuns: 200 },
    );
  });

  it('loading and reloading folders never changes what the task backs up', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.nat(), { maxLength: 10 }), (played, loads) => {
        let { machine, state } = afterActions(played, false);
        for (const pick of loads) {
          const before = paths(toBackupItems(state));
          state = apply(state, { kind: pick % 2 === 0 ? 'load' : 'reload', pick: Math.floor(pick / 2) }, machine);
          expect(paths(toBackupItems(state))).toEqual(before);
        }
      }),
      { numRuns: 200 },
    );
  });
});
