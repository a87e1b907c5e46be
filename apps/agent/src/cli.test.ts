import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_USAGE, parseArgs, UsageError } from './cli.js';

describe('agent command line (issue #2 skeleton)', () => {
  it('parses a command with options', () => {
    expect(parseArgs(['link', '--server', 'https://portal.example.com'])).toEqual({
      command: 'link',
      options: { server: 'https://portal.example.com' },
    });
  });

  it('shows help for no command and for --help', () => {
    expect(parseArgs([]).command).toBe('help');
    expect(parseArgs(['run', '--help']).command).toBe('help');
  });

  it('refuses unknown commands and options without values', () => {
    expect(() => parseArgs(['explode'])).toThrow(UsageError);
    expect(() => parseArgs(['link', '--server'])).toThrow('option --server needs a value');
  });

  it('prints its help from the command line', () => {
    const tsx = join(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const out = execFileSync(tsx, [join(import.meta.dirname, 'main.ts'), '--help'], { encoding: 'utf8' });
    expect(out).toBe(AGENT_USAGE);
    const bad = spawnSync(tsx, [join(import.meta.dirname, 'main.ts'), 'explode'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown command 'explode'");
  });
});
