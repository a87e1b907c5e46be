import { describe, expect, it } from 'vitest';
import { RETENTION_MESSAGES, retentionPlanArgs, retentionRetryDelayMs, taskHasRetention } from './retention.js';

describe('retention', () => {
  it('plans to keep the newest snapshot of each of the last N weeks of the task, grouped by tags, and pinned ones', () => {
    expect(retentionPlanArgs(9, 4)).toEqual([
      'forget',
      '--tag',
      'task-9',
      '--group-by',
      'tags',
      '--keep-weekly',
      '4',
      '--keep-tag',
      'portal-pinned',
      '--dry-run',
      '--json',
      '--no-lock',
    ]);
  });

  it('applies only to a positive snapshot limit (-1 unlimited, 0 snapshots off)', () => {
    expect(taskHasRetention(-1)).toBe(false);
    expect(taskHasRetention(0)).toBe(false);
    expect(taskHasRetention(1)).toBe(true);
  });

  it('tries a failed retention again after 1, 2, 4 … minutes, at most 6 hours', () => {
    expect([1, 2, 3, 4].map(retentionRetryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retentionRetryDelayMs(30)).toBe(6 * 3_600_000);
  });

  it('keeps the agent’s former text for a failed retention', () => {
    expect(RETENTION_MESSAGES.failed('locked')).toBe(
      'Old snapshots could not be removed (retention will be applied after the next run): locked',
    );
  });
});
