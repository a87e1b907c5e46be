import { type ExclusionPlatform, samePath, selectItem, TREE_TEXTS, unselectAll } from '@portal/domain';
import { useEffect, useMemo } from 'react';
import { TreePicker } from '../../../ui/TreePicker';
import { useMachineTree } from './useMachineTree';

const FOLDERS_ONLY = { showFiles: false, showHidden: false };

export interface MachineFolderPickerProps {
  machineId: number;
  platform: ExclusionPlatform;
  label: string;
  /** The chosen folder's path ('' for none); the owner may take it from elsewhere too, as a typed path. */
  value: string;
  onChange: (path: string) => void;
}

/**
 * One folder of the machine, picked in its live tree (useMachineTree: loaded when shown, children when a folder is
 * first opened, the offline and time-out messages of the task dialog's tree). Files are not shown; each folder has a
 * radio button, one chosen at a time (issue 31). The choice follows `value`, so a typed path that names a loaded
 * folder shows it chosen.
 */
export function MachineFolderPicker({ machineId, platform, label, value, onChange }: MachineFolderPickerProps) {
  const tree = useMachineTree(machineId, platform);
  const { reset } = tree;
  useEffect(() => {
    void reset();
  }, [reset]);
  const shown = useMemo(() => selectItem(unselectAll(tree.state), value), [tree.state, value]);
  return (
    <TreePicker
      state={shown}
      visibility={FOLDERS_ONLY}
      loading={tree.loading}
      loadingText={TREE_TEXTS.loading}
      label={label}
      onToggle={(path) => {
        if (!samePath(path, value, platform)) onChange(path);
      }}
      onOpen={(item, opened) => void tree.open(item, opened)}
      bulkActions={false}
      choice="one"
    />
  );
}
