import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectChange, median, type RunFigures, retentionPreviewKeep, CHANGE_DETECTION as T } from './guardrails.js';

const MB = 1024 * 1024;
/** An ordinary day of an office share: a few dozen files edited, a few MB added, 10,000 files in all. */
const usual = (i: number): RunFigures => ({
  filesNew: 5 + (i % 3),
  filesChanged: 30 + i,
  filesUnmodified: 10_000,
  bytesAdded: (4 + (i % 2)) * MB,
  bytesTotal: 2_000 * MB,
});
const history = Array.from({ length: 10 }, (_, i) => usual(i));

describe('change detection (issue 32 item 7)', () => {
  it('takes the median of odd and even lists', () => {
    expect(median([])).toBe(0);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it('passes an ordinary run', () => {
    expect(detectChange(history, usual(4))).toEqual({ reasons: [], smallerThanUsual: false });
  });

  it('marks an encrypted-looking run: every file rewritten, its size added again', () => {
    const encrypted = {
      filesNew: 0,
      filesChanged: 10_000,
      filesUnmodified: 40,
      bytesAdded: 2_000 * MB,
      bytesTotal: 2_000 * MB,
    };
    expect(detectChange(history, encrypted).reasons).toEqual(['FILES', 'BYTES', 'SHARE']);
  });

  it('marks encrypted copies under new names by their count and bytes alone', () => {
    const copies = {
      filesNew: 9_000,
      filesChanged: 0,
      filesUnmodified: 1_000,
      bytesAdded: 1_800 * MB,
      bytesTotal: 3_800 * MB,
    };
    expect(detectChange(history, copies).reasons).toEqual(['FILES', 'BYTES']);
  });

  it('needs a history to compare with, and stays under the floors of a tiny task', () => {
    const big = { filesNew: 5_000, filesChanged: 0, filesUnmodified: 0, bytesAdded: 900 * MB, bytesTotal: 900 * MB };
    // A first backup adds everything: nothing to compare with yet.
    expect(detectChange([], big).reasons).toEqual([]);
    expect(detectChange(history.slice(0, T.minHistory - 1), big).reasons).toEqual([]);
    const tiny = { filesNew: 0, filesChanged: 1, filesUnmodified: 0, bytesAdded: 1, bytesTotal: 1 };
    expect(detectChange([tiny, tiny, tiny], { ...tiny, filesChanged: 50, bytesAdded: 50 * MB }).reasons).toEqual([]);
  });

  it('flags a run far smaller than the task’s usual size', () => {
    expect(detectChange(history, { ...usual(1), bytesTotal: 900 * MB }).smallerThanUsual).toBe(true);
    expect(detectChange(history, { ...usual(1), bytesTotal: 1_100 * MB }).smallerThanUsual).toBe(false);
    expect(detectChange([], { ...usual(1), bytesTotal: 1 }).smallerThanUsual).toBe(false);
  });

  const figures = fc.record({
    filesNew: fc.nat(100_000),
    filesChanged: fc.nat(100_000),
    filesUnmodified: fc.nat(100_000),
    bytesAdded: fc.nat(10_000 * MB),
    bytesTotal: fc.nat(10_000 * MB),
  });

  it('never marks a run that changed no more than the median of its history', () => {
    fc.assert(
      fc.property(fc.array(figures, { minLength: T.minHistory, maxLength: 30 }), (runs) => {
        const [head, ...rest] = runs;
        if (!head) return;
        const quiet = {
          ...head,
          filesNew: 0,
          filesChanged: 0,
          bytesAdded: Math.min(head.bytesAdded, median(rest.map((r) => r.bytesAdded))),
        };
        expect(detectChange(rest.length >= T.minHistory ? rest : runs, quiet).reasons).toEqual([]);
      }),
    );
  });

  it('marks more when a run changes more: growing the changes never clears a reason', () => {
    fc.assert(
      fc.property(
        fc.array(figures, { maxLength: 30 }),
        figures,
        fc.nat(100_000),
        fc.nat(1_000 * MB),
        (runs, run, more, bytes) => {
          const before = detectChange(runs, run).reasons;
          const after = detectChange(runs, {
            ...run,
            filesNew: run.filesNew + more,
            bytesAdded: run.bytesAdded + bytes,
          }).reasons;
          for (const reason of before) expect(after).toContain(reason);
        },
      ),
    );
  });
});

describe('retention preview (issue 32 item 8)', () => {
  it('previews a changed, valid snapshots-to-keep only', () => {
    expect(retentionPreviewKeep(4, '2')).toBe(2);
    expect(retentionPreviewKeep(-1, 3)).toBe(3);
    expect(retentionPreviewKeep(4, 4)).toBeNull();
    expect(retentionPreviewKeep(4, -1)).toBeNull();
    expect(retentionPreviewKeep(4, 'x')).toBeNull();
    expect(retentionPreviewKeep(4, '')).toBeNull();
  });
});
