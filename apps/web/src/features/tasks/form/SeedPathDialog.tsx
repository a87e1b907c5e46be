import {
  type ExclusionPlatform,
  findTreeItem,
  selectItem,
  TASK_FORM_TEXTS,
  TREE_TEXTS,
  toBackupItems,
  unselectAll,
} from '@portal/domain';
import { FormModal, useOnOpen } from '../../../ui';
import { TreePicker } from '../../../ui/TreePicker';
import { useMachineTree } from './useMachineTree';

const TEXT = TASK_FORM_TEXTS;
const FOLDERS_ONLY = { showFiles: false, showHidden: false };

/**
 * Seed disk path selection (002 §2.6): one folder of the machine (the local disk the seed is written to),
 * chosen in the machine's tree; Select is enabled once a folder is ticked.
 */
export function SeedPathDialog({
  show,
  machineId,
  platform,
  onHide,
  onSelect,
  animation,
}: {
  show: boolean;
  machineId: number;
  platform: ExclusionPlatform;
  onHide: () => void;
  onSelect: (path: string) => void;
  animation?: boolean | undefined;
}) {
  const tree = useMachineTree(machineId, platform);
  useOnOpen(show, () => void tree.reset());
  const [chosen] = toBackupItems(tree.state);
  return (
    <FormModal
      show={show}
      title={TEXT.seedPathTitle}
      onHide={onHide}
      onSubmit={(event) => {
        event.preventDefault();
        // Inside the task form in React's tree: the submit must not reach it.
        event.stopPropagation();
        if (chosen) onSelect(chosen.path);
      }}
      submitting={false}
      submitLabel={TEXT.seedPathSelect}
      submitDisabled={chosen === undefined}
      onExited={tree.clear}
      animation={animation}
      data-testid="seed-path-dialog"
    >
      <TreePicker
        state={tree.state}
        visibility={FOLDERS_ONLY}
        loading={tree.loading}
        loadingText={TREE_TEXTS.loading}
        label={TEXT.seedPathTitle}
        onToggle={(value) =>
          tree.setState((current) =>
            findTreeItem(current, value)?.selected ? unselectAll(current) : selectItem(unselectAll(current), value),
          )
        }
        onOpen={(item, opened) => void tree.open(item, opened)}
        bulkActions={false}
      />
    </FormModal>
  );
}
