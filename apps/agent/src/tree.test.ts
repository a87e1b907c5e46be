import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeItemSchema } from '@portal/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { listTree } from './tree.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-tree-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tree items', () => {
  it("lists one level of a directory's children: directories first, hidden flag, lazy children", async () => {
    mkdirSync(join(dir, 'b-docs', 'deeper'), { recursive: true });
    mkdirSync(join(dir, '.config'));
    writeFileSync(join(dir, 'a.txt'), 'a');
    writeFileSync(join(dir, '.hidden'), 'h');
    symlinkSync(join(dir, 'b-docs'), join(dir, 'link-to-docs'));
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    const { treeItems } = await listTree(dir);
    for (const item of treeItems) expect(treeItemSchema.safeParse(item).success).toBe(true);
    expect(treeItems.map((i) => [i.text, i.type, i.hidden, i.leaf])).toEqual([
      ['.config', 'DIRECTORY', true, false],
      ['b-docs', 'DIRECTORY', false, false],
      ['link-to-docs', 'DIRECTORY', false, false],
      ['.hidden', 'FILE', true, true],
      ['a.txt', 'FILE', false, true],
      ['dangling', 'FILE', false, true],
    ]);
    const docs = treeItems.find((i) => i.text === 'b-docs');
    expect(docs).toMatchObject({ value: join(dir, 'b-docs'), children: null, missing: false });
    const hiddenLeft = await listTree(dir, false);
    expect(hiddenLeft.treeItems.map((i) => i.text)).toEqual(['b-docs', 'link-to-docs', 'a.txt', 'dangling']);
  });

  it('answers a missing path with one missing item, and a file with itself', async () => {
    const missing = join(dir, 'no', 'such');
    expect((await listTree(missing)).treeItems).toEqual([
      expect.objectContaining({ value: missing, text: 'such', missing: true, leaf: true }),
    ]);
    expect((await listTree(join(dir, 'a.txt'))).treeItems).toEqual([
      expect.objectContaining({ value: join(dir, 'a.txt'), type: 'FILE', missing: false }),
    ]);
    const root = await listTree('');
    expect(root.treeItems.some((i) => i.value === '/tmp')).toBe(true);
  });
});
