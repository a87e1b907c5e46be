import { type ExclusionPlatform, TASK_FORM_TEXTS } from '@portal/domain';
import { useState } from 'react';
import { FormModal } from '../../../ui';
import { MachineFolderPicker } from './MachineFolderPicker';

const TEXT = TASK_FORM_TEXTS;

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
  const [chosen, setChosen] = useState('');
  return (
    <FormModal
      show={show}
      title={TEXT.seedPathTitle}
      onHide={onHide}
      onSubmit={(event) => {
        event.preventDefault();
        // Inside the task form in React's tree: the submit must not reach it.
        event.stopPropagation();
        if (chosen !== '') onSelect(chosen);
      }}
      submitting={false}
      submitLabel={TEXT.seedPathSelect}
      submitDisabled={chosen === ''}
      onExited={() => setChosen('')}
      animation={animation}
      data-testid="seed-path-dialog"
    >
      <MachineFolderPicker
        machineId={machineId}
        platform={platform}
        label={TEXT.seedPathTitle}
        value={chosen}
        onChange={setChosen}
      />
    </FormModal>
  );
}
