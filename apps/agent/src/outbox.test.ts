import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentToServer } from '@portal/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from './outbox.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-outbox-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const started = (runKey: string): AgentToServer => ({
  type: 'runStarted',
  runKey,
  taskId: 1,
  startedAt: '2026-06-01T00:00:00.000Z',
  manual: false,
});
const progress = (runKey: string, percentage: number): AgentToServer => ({
  type: 'runProgress',
  runKey,
  phase: 'TRANSFERRING_FILES',
  percentage,
  currentItem: 0,
  totalItems: 0,
  bytesDone: 0,
  bytesTotal: 0,
});
const finished = (runKey: string): AgentToServer => ({
  type: 'runFinished',
  runKey,
  status: 'FINISHED_SUCCESS',
  finishedAt: '2026-06-01T00:01:00.000Z',
  exitCodeResult: 'SUCCESS',
  failureMessage: null,
  snapshotId: 'a'.repeat(64),
  bytesAdded: 1,
  bytesTotal: 2,
});
const label = (e: AgentToServer) =>
  `${e.type}:${'runKey' in e ? e.runKey : ''}${e.type === 'runProgress' ? `:${e.percentage}` : ''}`;

describe('Outbox', () => {
  it('survives a restart (and a torn last line) and flushes in order', async () => {
    const first = new Outbox({ stateDir: dir });
    first.push(started('r1'));
    first.push(progress('r1', 10));
    first.push(finished('r1'));
    first.push(started('r2'));
    first.close();
    // A crash while writing leaves half a line.
    appendFileSync(join(dir, 'outbox.jsonl'), '{"type":"runProg');
    expect(statSync(join(dir, 'outbox.jsonl')).mode & 0o777).toBe(0o600);

    const second = new Outbox({ stateDir: dir });
    expect(second.pending().map(label)).toEqual([
      'runStarted:r1',
      'runProgress:r1:10',
      'runFinished:r1',
      'runStarted:r2',
    ]);
    second.push(progress('r2', 50));
    const sent: string[] = [];
    await second.setTransport(async (e) => {
      sent.push(label(e));
    });
    expect(sent).toEqual([
      'runStarted:r1',
      'runProgress:r1:10',
      'runFinished:r1',
      'runStarted:r2',
      'runProgress:r2:50',
    ]);
    expect(readFileSync(join(dir, 'outbox.jsonl'), 'utf8')).toBe('');
    // Online: an event goes out at once.
    second.push(finished('r2'));
    await second.pump();
    expect(sent.at(-1)).toBe('runFinished:r2');
    second.close();
  });

  it('keeps what the transport failed to deliver, in order, for the next connection', async () => {
    const outbox = new Outbox({ stateDir: dir });
    for (const e of [started('r1'), progress('r1', 1), finished('r1')]) outbox.push(e);
    const sent: string[] = [];
    let calls = 0;
    await outbox.setTransport(async (e) => {
      if (++calls === 2) throw new Error('connection lost');
      sent.push(label(e));
    });
    expect(sent).toEqual(['runStarted:r1']);
    expect(outbox.pending().map(label)).toEqual(['runProgress:r1:1', 'runFinished:r1']);
    outbox.push(progress('r1', 2)); // offline again: only queued
    outbox.close();
    const reopened = new Outbox({ stateDir: dir });
    expect(reopened.pending().map(label)).toEqual(['runProgress:r1:1', 'runFinished:r1', 'runProgress:r1:2']);
    reopened.close();
  });

  it('is bounded: drops the oldest progress first, never runStarted or runFinished', () => {
    const outbox = new Outbox({ stateDir: dir, limit: 10 });
    outbox.push(started('r1'));
    for (let i = 0; i < 30; i++) outbox.push(progress('r1', i));
    outbox.push(finished('r1'));
    const pending = outbox.pending().map(label);
    expect(pending[0]).toBe('runStarted:r1');
    expect(pending.at(-1)).toBe('runFinished:r1');
    const kept = pending.filter((l) => l.startsWith('runProgress'));
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(kept.at(-1)).toBe('runProgress:r1:29');
    expect(kept).toEqual([...kept].sort((a, b) => Number(a.split(':')[2]) - Number(b.split(':')[2])));
    expect(outbox.dropped).toBe(30 - kept.length);
    // Critical events alone may exceed the bound: they are never dropped.
    for (let i = 0; i < 15; i++) {
      outbox.push(started(`s${i}`));
      outbox.push(finished(`s${i}`));
    }
    expect(outbox.pending().filter((e) => e.type === 'runStarted')).toHaveLength(16);
    expect(outbox.pending().filter((e) => e.type === 'runFinished')).toHaveLength(16);
    outbox.close();
    expect(new Outbox({ stateDir: dir, limit: 10 }).pending()).toHaveLength(outbox.pending().length);
  });
});
