import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtAgent } from './built-agent.js';
import { AGENT_USAGE } from './cli.js';
import { CLIENT_VERSION } from './config.js';

const run = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), 'portal-agent-run-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('the Linux x64 single executable', () => {
  it('runs with no Node.js on PATH and nothing in its environment', async () => {
    const executable = join(await builtAgent(), 'portal-agent-linux-x64');
    // An empty folder as PATH: no node to be found, as on a machine without Node.js.
    const env = { PATH: mkdtempSync(join(out, 'empty-path-')) };
    const version = await run(executable, ['--version'], { env, cwd: out });
    expect(version.stdout).toBe(`portal-agent ${CLIENT_VERSION}\n`);
    expect(version.stderr).toBe('');
    expect((await run(executable, ['--help'], { env, cwd: out })).stdout).toBe(AGENT_USAGE);
    const usage = await run(executable, ['explode'], { env, cwd: out }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'explode'") });
  }, 120_000);
});
