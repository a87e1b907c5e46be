import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Answers, watchServerLog } from './answers.js';

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** What verdict() printed, one string per line. */
function printed(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((line: string) => lines.push(...line.split('\n')));
  return lines;
}

describe('the answers of a benchmark', () => {
  it('lets the figures through when every answer was 2xx and every write succeeded', () => {
    const answers = new Answers();
    const lines = printed();
    expect(answers.http('GET /dashboard/customers', 200)).toBe(true);
    expect(answers.http('POST /login/mfa', 204)).toBe(true);
    expect(answers.outcome('insert of a row', true)).toBe(true);
    expect(answers.verdict('Bench')).toBe(true);
    expect(lines).toEqual([]);
    expect(process.exitCode).toBeUndefined();
    expect(answers.statusLine()).toBe('answers: 200 × 1, 204 × 1');
  });

  it('refuses the figures on one refusal among many answers, naming the call, status and body, exit code 1', () => {
    const answers = new Answers();
    const lines = printed();
    for (let i = 0; i < 999; i++) answers.http('GET /dashboard/customers', 200);
    expect(
      answers.http('GET /dashboard/customers', 403, '{"messages":[{"message":"You do not have access to this."}]}'),
    ).toBe(false);
    expect(answers.verdict('Dashboard load')).toBe(false);
    expect(process.exitCode).toBe(1);
    expect(lines[1]).toBe('Dashboard load: 1 of 1,000 answers or writes were errors; no figures reported.');
    expect(lines[2]).toBe(
      '  1 × GET /dashboard/customers answered 403: {"messages":[{"message":"You do not have access to this."}]}',
    );
    expect(lines[3]).toBe('  answers: 200 × 999, 403 × 1');
  });

  it('counts a redirect and a server error as errors too: only 2xx is an answer', () => {
    const answers = new Answers();
    expect(answers.http('POST /login', 302)).toBe(false);
    expect(answers.http('GET /health', 503)).toBe(false);
    expect(answers.http('GET /health', 503)).toBe(false);
    expect(answers.failed).toBe(3);
  });

  it('counts failed writes, thrown ones included, by call, most frequent first', async () => {
    const answers = new Answers();
    const lines = printed();
    expect(await answers.write('insert of a task', async () => 7)).toBe(7);
    expect(
      await answers.write('presence update', async () => {
        throw new Error('timeout exceeded when trying to connect');
      }),
    ).toBeUndefined();
    answers.error('presence update failed', 'timeout exceeded when trying to connect', 15_607);
    answers.outcome('tree request', false, 'You do not have access to this.');
    answers.error('nothing went wrong', '', 0);
    expect(answers.failed).toBe(15_609);
    expect(answers.verdict('Fleet')).toBe(false);
    expect(lines.slice(1)).toEqual([
      'Fleet: 15,609 of 15,610 answers or writes were errors; no figures reported.',
      '  15,608 × presence update failed: timeout exceeded when trying to connect',
      '  1 × tree request failed: You do not have access to this.',
    ]);
  });

  it("counts each error a server logs (pino's level 50 and up), passes every line on, ends with the log", async () => {
    const answers = new Answers();
    const output = new PassThrough();
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    const ended = watchServerLog(output, answers, 'the server');
    const lines = [
      JSON.stringify({ level: 40, msg: 'a pooled database connection broke' }),
      JSON.stringify({ level: 50, msg: 'live channel presence update failed', err: { message: 'timeout' } }),
      'not JSON',
      JSON.stringify({ level: 60, msg: 'fatal', err: { message: 'gone' } }),
    ];
    output.end(`${lines.join('\n')}\n`);
    await ended;
    expect(written).toEqual(lines.map((line) => `${line}\n`));
    expect(answers.failed).toBe(2);
    const shown = printed();
    answers.verdict('Bench');
    expect(shown).toContain('  1 × the server logged the error "live channel presence update failed": timeout');
  });
});
