import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './api.js';
import { isLogFileName, LOG_FILES, logFileNameSchema, logFileUploadQuerySchema } from './log-files.js';
import { withQuery } from './paths.js';

const messageOf = (input: unknown) => {
  const result = logFileNameSchema.safeParse(input);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('log file names (001 §3, §7)', () => {
  it('accepts the names agents write', () => {
    for (const name of ['agent.log', 'agent.1.log', 'updater-2026-11-23.log', 'restic-last-run.log', 'agent log.txt']) {
      expect(logFileNameSchema.parse(name)).toBe(name);
    }
  });

  it('refuses path separators, dot names, control characters, padding and over-long names', () => {
    for (const name of ['../etc/passwd', 'a/b.log', 'a\\b.log', '.', '..', 'a\u0000.log', 'a\nb', ' agent.log']) {
      expect(messageOf(name)).toBe('File name is not valid');
    }
    expect(messageOf('')).toBe('File name is required');
    expect(messageOf(undefined)).toBe('File name is required');
    expect(messageOf('x'.repeat(LOG_FILES.fileNameMax + 1))).toBe('File name must be at most 100 characters');
    expect(logFileNameSchema.safeParse('x'.repeat(LOG_FILES.fileNameMax)).success).toBe(true);
  });

  it('never lets a name with a separator through', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('/', '\\'), fc.string(), (a, separator, b) => {
        expect(isLogFileName(`${a}${separator}${b}`)).toBe(false);
      }),
    );
  });

  it('builds the agent upload path with the name and time in its query, and reads them back', () => {
    expect(
      withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: 12 }), { fileName: 'agent log.txt' }),
    ).toBe('/agent/machines/12/logfiles?fileName=agent%20log.txt');
    const at = new Date('2026-11-23T10:00:00.000Z');
    const path = withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: 12 }), {
      fileName: '../x',
      lastModified: at.toISOString(),
    });
    expect(path).toBe('/agent/machines/12/logfiles?fileName=..%2Fx&lastModified=2026-11-23T10%3A00%3A00.000Z');
    const query = Object.fromEntries(new URL(path, 'http://portal.test').searchParams);
    expect(logFileUploadQuerySchema.safeParse(query).success).toBe(false);
    expect(logFileUploadQuerySchema.parse({ ...query, fileName: 'agent.log' })).toEqual({
      fileName: 'agent.log',
      lastModified: '2026-11-23T10:00:00.000Z',
    });
    expect(logFileUploadQuerySchema.parse({ fileName: 'agent.log' })).toEqual({ fileName: 'agent.log' });
    expect(logFileUploadQuerySchema.safeParse({ fileName: 'agent.log', lastModified: 'yesterday' }).success).toBe(
      false,
    );
  });
});
