import { describe, expect, it } from 'vitest';
import { agentInstallCommand, agentInstallerQuerySchema, agentOsOf } from './agent-install.js';
import { ROUTES } from './api.js';
import { manualHeadingLevel, manualHeadingRem, numberChapters } from './manual.js';
import { MESSAGES } from './messages.js';

const paths = {
  unix: ROUTES.agentDownloads.unixInstaller.path,
  windows: ROUTES.agentDownloads.windowsInstaller.path,
};

describe('getting the agent (issue 14)', () => {
  it('builds the one-line installers with the code and, when chosen, the package', () => {
    expect(agentInstallCommand('linux', 'https://portal.example.com', paths, 'ABCD-EFGH-JK23')).toBe(
      "curl -fsSL 'https://portal.example.com/public/downloads/agent/install.sh?code=ABCD-EFGH-JK23' | sh",
    );
    expect(agentInstallCommand('macos', 'https://p.example', paths, 'ABCD-EFGH-JK23', 4)).toBe(
      "curl -fsSL 'https://p.example/public/downloads/agent/install.sh?code=ABCD-EFGH-JK23&package=4' | sh",
    );
    expect(agentInstallCommand('windows', 'https://p.example', paths, 'ABCD-EFGH-JK23')).toBe(
      "irm 'https://p.example/public/downloads/agent/install.ps1?code=ABCD-EFGH-JK23' | iex",
    );
  });

  it('takes a code as typed into its canonical groups and refuses anything else on code', () => {
    expect(agentInstallerQuerySchema.parse({ code: 'abcd efgh-jk23', package: '3' })).toEqual({
      code: 'ABCD-EFGH-JK23',
      package: 3,
    });
    expect(agentInstallerQuerySchema.parse({})).toEqual({});
    const bad = agentInstallerQuerySchema.safeParse({ code: 'ABCD-EFGH-JK1O' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues).toEqual([
      expect.objectContaining({ path: ['code'], message: MESSAGES.agentInstall.badCode }),
    ]);
    expect(agentInstallerQuerySchema.safeParse({ package: '-1' }).error?.issues[0]?.path).toEqual(['package']);
  });

  it("tells the visitor's operating system from the browser's platform or user agent", () => {
    expect(agentOsOf('Win32')).toBe('windows');
    expect(agentOsOf('MacIntel')).toBe('macos');
    expect(agentOsOf('Linux x86_64')).toBe('linux');
    expect(agentOsOf('Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)')).toBe('linux');
    expect(agentOsOf('')).toBeNull();
  });
});

describe('the desktop-app user manual (000 §1)', () => {
  it('sizes chapter headings by depth: 2, 1.5, 1.25, then 1 rem', () => {
    expect([1, 2, 3, 4, 5].map(manualHeadingRem)).toEqual([2, 1.5, 1.25, 1, 1]);
    expect([1, 2, 3, 4, 5, 6].map(manualHeadingLevel)).toEqual([2, 3, 4, 5, 6, 6]);
  });

  it('numbers chapters in order under their parents', () => {
    const numbered = numberChapters([
      { id: 'a', title: 'A', body: null },
      {
        id: 'b',
        title: 'B',
        body: null,
        chapters: [
          { id: 'b1', title: 'B1', body: null },
          { id: 'b2', title: 'B2', body: null, chapters: [{ id: 'b21', title: 'B21', body: null }] },
        ],
      },
    ]);
    expect(numbered.map((c) => c.number)).toEqual(['1', '2']);
    expect(numbered[1]?.chapters.map((c) => [c.number, c.depth])).toEqual([
      ['2.1', 2],
      ['2.2', 2],
    ]);
    expect(numbered[1]?.chapters[1]?.chapters[0]).toMatchObject({ number: '2.2.1', depth: 3 });
  });
});
