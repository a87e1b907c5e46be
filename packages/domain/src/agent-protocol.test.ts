import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_CHANNEL,
  AGENT_RECONNECT,
  agentLinkCommand,
  agentToServerSchema,
  canonicalLinkingCode,
  formatLinkingCode,
  LINKING_CODE,
  machineLinkProof,
  machineLinkRequestSchema,
  reconnectCeilingMs,
  reconnectDelayMs,
  runOutcomeOfResticExit,
  serverToAgentSchema,
} from './agent-protocol.js';
import { MESSAGES } from './messages.js';
import { restartReconnectDelayMs, SERVICE_RESTART_CLOSE } from './service-restart.js';
import { LINKING_MACHINE } from './testing/agent-task.js';

describe('agent channel protocol (DESIGN §5–6)', () => {
  it('waits longer after each failed attempt, never more than a minute, with full jitter', () => {
    expect(reconnectDelayMs(1, () => 1)).toBe(1000);
    expect(reconnectDelayMs(2, () => 1)).toBe(2000);
    expect(reconnectDelayMs(7, () => 1)).toBe(60_000);
    expect(reconnectDelayMs(1000, () => 1)).toBe(60_000);
    expect(reconnectDelayMs(5, () => 0)).toBe(0);
    // Full jitter: every wait in [0, min(cap, base·2^(n−1))], whatever the random draw.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
        const delay = reconnectDelayMs(n, () => r);
        const ceiling = Math.min(AGENT_RECONNECT.capMs, AGENT_RECONNECT.baseMs * 2 ** Math.min(n - 1, 30));
        return delay >= 0 && delay <= ceiling && reconnectCeilingMs(n) === ceiling;
      }),
    );
  });

  it("spreads a fleet's reconnects over the whole back-off window rather than bunching them", () => {
    // With Math.random, 10,000 agents on their fourth attempt fill [0, 8 s] about evenly: each second of it gets
    // close to an eighth (a fixed or half-jittered delay would put them all in one or four seconds).
    const ceiling = reconnectCeilingMs(4);
    const buckets = new Array<number>(8).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const bucket = Math.min(7, Math.floor((reconnectDelayMs(4) / ceiling) * 8));
      buckets[bucket] = (buckets[bucket] ?? 0) + 1;
    }
    for (const count of buckets) expect(count).toBeGreaterThan(1_000);
  });

  it('reconnects after a service restart within the restart jitter, not the failure backoff', () => {
    expect(SERVICE_RESTART_CLOSE.code).toBe(1012);
    expect(restartReconnectDelayMs(() => 0)).toBe(0);
    expect(restartReconnectDelayMs(() => 1)).toBe(SERVICE_RESTART_CLOSE.jitterMs);
    expect(restartReconnectDelayMs(() => 0.5)).toBe(SERVICE_RESTART_CLOSE.jitterMs / 2);
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

describe('linking a machine (issue #5: password or one-time linking code)', () => {
  const fieldsOf = (body: Record<string, unknown>) => {
    const result = machineLinkRequestSchema.safeParse({ ...LINKING_MACHINE, ...body });
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('refuses a machine name the machine form refuses: blank, too long, invisible characters (issue 29)', () => {
    expect(fieldsOf({ linkingCode: 'abcd-efgh-jk23', name: 'alex\u200b-laptop' })).toEqual([
      'name: Name cannot contain invisible or direction-changing characters',
    ]);
    expect(fieldsOf({ linkingCode: 'abcd-efgh-jk23', name: '  ' })).toEqual(['name: Name is required']);
    expect(fieldsOf({ linkingCode: 'abcd-efgh-jk23', name: 'x'.repeat(51) })).toEqual([
      'name: Name must be at most 50 characters',
    ]);
    expect(fieldsOf({ linkingCode: 'abcd-efgh-jk23', name: ' alex-laptop ' })).toEqual([]);
  });

  it('uses an alphabet of 32 characters that cannot be read two ways', () => {
    expect(new Set(LINKING_CODE.alphabet).size).toBe(32);
    for (const ambiguous of '01IO') expect(LINKING_CODE.alphabet).not.toContain(ambiguous);
  });

  it('reads a code however it is typed, and formats it in groups of four', () => {
    expect(canonicalLinkingCode('abcd-efgh-jk23')).toBe('ABCDEFGHJK23');
    expect(canonicalLinkingCode(' ABCD EFGH JK23 ')).toBe('ABCDEFGHJK23');
    expect(canonicalLinkingCode('ABCD-EFGH-JK2')).toBeNull();
    expect(canonicalLinkingCode('ABCD-EFGH-JK20')).toBeNull();
    expect(formatLinkingCode('ABCDEFGHJK23')).toBe('ABCD-EFGH-JK23');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINKING_CODE.alphabet), { minLength: 12, maxLength: 12 }),
        (chars) => canonicalLinkingCode(formatLinkingCode(chars.join('')).toLowerCase()) === chars.join(''),
      ),
    );
    expect(agentLinkCommand('https://portal.example.com', 'ABCD-EFGH-JK23')).toBe(
      'portal-agent link --server https://portal.example.com --code ABCD-EFGH-JK23',
    );
    expect(agentLinkCommand('https://portal.example.com', 'ABCD-EFGH-JK23', 4)).toBe(
      'portal-agent link --server https://portal.example.com --code ABCD-EFGH-JK23 --package 4',
    );
  });

  it('takes either e-mail and password or a linking code, never both and never neither', () => {
    const code = machineLinkRequestSchema.parse({ ...LINKING_MACHINE, linkingCode: 'abcd-efgh-jk23' });
    expect(code.linkingCode).toBe('ABCDEFGHJK23');
    expect(machineLinkProof(code)).toEqual({ kind: 'code', code: 'ABCDEFGHJK23' });
    const password = machineLinkRequestSchema.parse({ ...LINKING_MACHINE, email: 'a@b.c', password: 'pw' });
    expect(machineLinkProof(password)).toEqual({ kind: 'password', email: 'a@b.c', password: 'pw' });
    // What the agent sends after its own parse parses again to the same request.
    expect(machineLinkRequestSchema.parse(code)).toEqual(code);

    const either = MESSAGES.machineLink.codeOrPassword;
    expect(fieldsOf({})).toEqual([`email: ${either}`, `password: ${either}`]);
    expect(fieldsOf({ email: 'a@b.c' })).toEqual([`password: ${either}`]);
    expect(fieldsOf({ linkingCode: 'ABCD-EFGH-JK23', email: 'a@b.c', password: 'pw' })).toEqual([
      `email: ${either}`,
      `password: ${either}`,
    ]);
    expect(fieldsOf({ linkingCode: 'not a code' })).toEqual([
      `linkingCode: ${MESSAGES.machineLink.linkingCodeInvalid}`,
    ]);
    expect(() => machineLinkProof({ ...password, email: undefined })).toThrow(either);
  });
});
