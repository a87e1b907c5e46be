/** Test-only builders of tree items (002 §3) for the tree tests. */
import { listedTreeItem, type TreeItem } from '../tree.js';
import type { TreeEntry } from './random-tree.js';

/** A tree item as the agent would send it: nothing selected, children not loaded for a folder. */
export function treeItem(value: string, overrides: Partial<TreeItem> = {}): TreeItem {
  const separator = value.includes('\\') ? '\\' : '/';
  const isFile = overrides.type === 'FILE';
  const text = value.split(separator).filter(Boolean).pop() ?? value;
  return listedTreeItem(value, text, 'DIRECTORY', {
    hidden: false,
    leaf: isFile,
    children: isFile ? [] : null,
    ...overrides,
  });
}

export const file = (value: string, overrides: Partial<TreeItem> = {}) =>
  treeItem(value, { type: 'FILE', leaf: true, children: [], ...overrides });

/** A folder with its children already loaded. */
export const folder = (value: string, children: TreeItem[], overrides: Partial<TreeItem> = {}) =>
  treeItem(value, { children, ...overrides });

/**
 * The machine's full tree for generated entries below `root`: each entry becomes an item, folders with their
 * children loaded. `flag` lets a test mark items (hidden, permanently disabled, excluded by the machine).
 */
export function machineTree(
  root: string,
  entries: readonly TreeEntry[],
  flag: (entry: TreeEntry) => Partial<TreeItem> = () => ({}),
): TreeItem[] {
  const build = (prefix: string): TreeItem[] =>
    entries
      .filter((entry) => {
        const parent = entry.rel.split('/').slice(0, -1).join('/');
        return parent === prefix;
      })
      .map((entry) => {
        const value = `${root}/${entry.rel}`;
        return entry.type === 'file'
          ? file(value, flag(entry))
          : folder(value, build(entry.rel), { ...flag(entry), leaf: false });
      });
  return build('');
}

/** The items as the agent sends one level: folders without their children (lazy loading). */
export const oneLevel = (items: readonly TreeItem[]): TreeItem[] =>
  items.map((item) => (item.type === 'FILE' ? item : { ...item, children: null }));
