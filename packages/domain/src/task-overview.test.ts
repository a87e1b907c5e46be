import { describe, expect, it } from 'vitest';
import { OS_FAMILIES, TASK_STATUSES } from './enums.js';
import { MESSAGES } from './messages.js';
import { volumeSnapshotsDisabledReason } from './task-overview.js';

describe('volumeSnapshotsDisabledReason (002 §5.5, §4.2)', () => {
  it('lets only Windows machines’ tasks that are not being deleted be edited, and says why not otherwise', () => {
    for (const osFamily of OS_FAMILIES) {
      for (const status of TASK_STATUSES) {
        const reason = volumeSnapshotsDisabledReason({ osFamily, status });
        if (osFamily !== 'WINDOWS') expect(reason).toBe(MESSAGES.taskOverview.notWindows);
        else if (status === 'BEING_DELETED') expect(reason).toBe(MESSAGES.taskOverview.taskBeingDeleted);
        else expect(reason).toBeNull();
      }
    }
    expect(volumeSnapshotsDisabledReason({ osFamily: 'WINDOWS' })).toBeNull();
  });
});
