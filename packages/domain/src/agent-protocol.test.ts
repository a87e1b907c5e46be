import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_CHANNEL,
  agentToServerSchema,
  reconnectDelayMs,
  runOutcomeOfResticExit,
  serverToAgentSchema,
} from './agent-protocol.js';

describe('agent channel protocol (DESIGN §5–6)', () => {
  it('waits longer after each failed attempt, never more than a minute, with full jitter', () => {
    expect(reconnectDelayMs(1, () => 1)).toBe(1000);
    expect(reconnectDelayMs(2, () => 1)).toBe(2000);
    expect(reconnectDelayMs(7, () => 1)).toBe(60_000);
    expect(reconnectDelayMs(1000, () => 1)).toBe(60_000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
        const delay = reconnectDelayMs(n, () => r);
        return delay >= 0 && delay <= 60_000;
      }),
    );
  });

  it('maps restic exit codes onto run results (0 success, 3 warnings, others failed, cancel first)', () => {
    expect(runOutcomeOfResticExit(0, false)).toEqual({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS' });
    expect(runOutcomeOfResticExit(3, false)).toEqual({
      status: 'FINISHED_WARNINGS',
      exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE',
    });
    expect(runOutcomeOfResticExit(1, false)).toEqual({ status: 'FAILED', exitCodeResult: 'FATAL' });
    expect(runOutcomeOfResticExit(null, false).exitCodeResult).toBe('EXIT_CODE_NA');
    expect(runOutcomeOfResticExit(0, true)).toEqual({ status: 'FAILED', exitCodeResult: 'CANCELLATION_REQUESTED' });
  });

  it('accepts well-formed messages and refuses unknown types, bad ids and oversized lists', () => {
    expect(serverToAgentSchema.safeParse({ type: 'startTask', requestId: 'r1', taskId: 3 }).success).toBe(true);
    expect(serverToAgentSchema.safeParse({ type: 'startTask', requestId: 'r1', taskId: 0 }).success).toBe(false);
    expect(serverToAgentSchema.safeParse({ type: 'format', requestId: 'r1' }).success).toBe(false);
    expect(
      agentToServerSchema.safeParse({
        type: 'runFinished',
        runKey: 'k',
        status: 'FINISHED_SUCCESS',
        finishedAt: '2026-11-23T10:00:00Z',
        exitCodeResult: 'SUCCESS',
        failureMessage: null,
        snapshotId: 'a'.repeat(64),
        bytesAdded: 10,
        bytesTotal: 20,
      }).success,
    ).toBe(true);
    expect(
      agentToServerSchema.safeParse({ type: 'realtimeOutput', commandId: 1, lines: Array(501).fill('x') }).success,
    ).toBe(false);
    expect(AGENT_CHANNEL.endpoint).toBe('/ws/agent/connect');
  });
});
