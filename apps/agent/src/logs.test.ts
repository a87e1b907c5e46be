import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_LOG_FILE, LogFile, logFilesToUpload, ROTATED_LOG_FILE, readTail } from './logs.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-logs-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the agent’s log file', () => {
  it('appends lines to agent.log (0600 in a 0700 dir), creating the directory', () => {
    const dir = join(tempDir(), 'logs');
    const log = new LogFile(dir);
    log.write('first');
    log.write('second\n');
    expect(readFileSync(join(dir, AGENT_LOG_FILE), 'utf8')).toBe('first\nsecond\n');
    expect(statSync(join(dir, AGENT_LOG_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // A new process goes on where the last one stopped.
    new LogFile(dir).write('third');
    expect(readFileSync(join(dir, AGENT_LOG_FILE), 'utf8')).toBe('first\nsecond\nthird\n');
  });

  it('rotates to agent.1.log at the cap, keeping at most two files', () => {
    const dir = tempDir();
    const log = new LogFile(dir, 100);
    const line = (n: number) => `line ${String(n).padStart(3, '0')} ${'x'.repeat(30)}`; // 40 bytes with \n
    for (let n = 1; n <= 7; n++) log.write(line(n));
    // 100 bytes hold two lines: 1-2 → rotated, 3-4 → rotated (replacing 1-2), 5-6 → rotated, 7 current.
    expect(readFileSync(join(dir, AGENT_LOG_FILE), 'utf8')).toBe(`${line(7)}\n`);
    expect(readFileSync(join(dir, ROTATED_LOG_FILE), 'utf8')).toBe(`${line(5)}\n${line(6)}\n`);
    expect(logFilesToUpload(dir, false)).toEqual([ROTATED_LOG_FILE, AGENT_LOG_FILE]);
    // A single line longer than the cap is still written whole.
    log.write('y'.repeat(150));
    expect(readFileSync(join(dir, AGENT_LOG_FILE), 'utf8')).toBe(`${'y'.repeat(150)}\n`);
    expect(readFileSync(join(dir, ROTATED_LOG_FILE), 'utf8')).toBe(`${line(7)}\n`);
  });

  it('never throws when the directory cannot be written', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const log = new LogFile(join(dir, 'file', 'logs'));
    const write = process.stderr.write;
    const said: string[] = [];
    process.stderr.write = ((text: string) => {
      said.push(text);
      return true;
    }) as typeof process.stderr.write;
    try {
      log.write('a');
      log.write('b');
    } finally {
      process.stderr.write = write;
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('cannot write');
  });

  it('lists updater logs only when asked, and nothing else of the directory', () => {
    const dir = tempDir();
    for (const name of [AGENT_LOG_FILE, 'updater-b.log', 'updater-a.log', 'updater.txt', 'other.log', 'agent.2.log']) {
      writeFileSync(join(dir, name), 'x\n');
    }
    expect(logFilesToUpload(dir, false)).toEqual([AGENT_LOG_FILE]);
    expect(logFilesToUpload(dir, true)).toEqual([AGENT_LOG_FILE, 'updater-a.log', 'updater-b.log']);
    expect(logFilesToUpload(join(dir, 'missing'), true)).toEqual([]);
  });

  it('reads the tail of a large file from its first whole line', () => {
    const dir = tempDir();
    const path = join(dir, AGENT_LOG_FILE);
    writeFileSync(path, 'ééé first line\nsecond line\nthird\n');
    expect(readTail(path, 1000)).toBe('ééé first line\nsecond line\nthird\n');
    // 36 bytes: the first line is 18 (é is two bytes), the second 12, the third 6.
    expect(readTail(path, 17)).toBe('third\n');
    expect(readTail(path, 18)).toBe('second line\nthird\n');
    const tail = readTail(path, 30);
    expect(tail).toBe('second line\nthird\n');
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(30);
    expect(readTail(path, 36)).toBe('ééé first line\nsecond line\nthird\n');
    writeFileSync(path, 'no newline at all');
    expect(readTail(path, 5)).toBe('');
  });
});
