import { omittedLinesText } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { createOutputRecorder } from './output.js';

/** A store like realtime_command_output: lines numbered on from the last, each insert recorded. */
function fakeStore() {
  const stored: string[] = [];
  const inserts: number[] = [];
  const published: Array<[string, number]> = [];
  return {
    stored,
    inserts,
    published,
    append: async (lines: readonly string[]) => {
      inserts.push(lines.length);
      stored.push(...lines);
      return stored.length - lines.length + 1;
    },
    publish: async (line: string, lineNumber: number) => {
      published.push([line, lineNumber]);
    },
  };
}

describe('the output recorder of a command sequence', () => {
  it('stores lines in bounded batches and sends each with the number it was stored under', async () => {
    const store = fakeStore();
    const recorder = createOutputRecorder({ ...store, onError: (e) => Promise.reject(e) });
    for (let i = 1; i <= 250; i += 1) recorder.line(`line ${i}`);
    await recorder.end();
    expect(store.stored).toHaveLength(250);
    expect(Math.max(...store.inserts)).toBeLessThanOrEqual(100);
    expect(store.published[0]).toEqual(['line 1', 1]);
    expect(store.published.at(-1)).toEqual(['line 250', 250]);
  });

  it('keeps only the first and the last lines, saying how many were left out, whatever the output’s size', async () => {
    const store = fakeStore();
    const recorder = createOutputRecorder({ ...store, onError: () => undefined, limits: { head: 5, tail: 3 } });
    for (let i = 1; i <= 100_000; i += 1) recorder.line(`line ${i}`);
    await recorder.end();
    expect(store.stored).toEqual([
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      'line 5',
      omittedLinesText(100_000 - 5 - 3),
      'line 99998',
      'line 99999',
      'line 100000',
    ]);
    expect(store.published.map(([, n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
