import { z } from 'zod';
import { canonicalLinkingCode, formatLinkingCode } from './agent-protocol.js';
import { MESSAGES } from './messages.js';

/**
 * Getting the agent from the portal (issue 14, DESIGN §6): the files the portal serves under
 * /public/downloads/agent/ (ROUTES.agentDownloads), the one-line install commands the 'Link a machine'
 * dialog and the manual show, and how restic is installed on each operating system.
 */

export const AGENT_DOWNLOADS = {
  /** The agent as one CommonJS file: runs with Node.js 20 or later on any operating system. */
  bundle: 'portal-agent.cjs',
  /** A single executable (Node inside): Linux x64, no Node.js needed. */
  linuxExecutable: 'portal-agent-linux-x64',
  /** The installers, as templates in the agent's build; the portal fills in its address and the code. */
  unixInstaller: 'install.sh',
  windowsInstaller: 'install.ps1',
} as const;

/** The operating systems the installers and the manual tell apart. */
export const AGENT_OS = ['linux', 'macos', 'windows'] as const;
export type AgentOs = (typeof AGENT_OS)[number];

export const AGENT_OS_NAMES: Record<AgentOs, string> = { linux: 'Linux', macos: 'macOS', windows: 'Windows' };

/** The visitor's operating system from the browser's platform or user-agent text; null when unknown. */
export function agentOsOf(platformOrUserAgent: string): AgentOs | null {
  const text = platformOrUserAgent.toLowerCase();
  if (text.includes('win')) return 'windows';
  if (text.includes('mac') || text.includes('darwin')) return 'macos';
  if (text.includes('linux') || text.includes('x11') || text.includes('cros')) return 'linux';
  return null;
}

/** How restic is installed, per system (the installers print the line for the machine they run on). */
export const RESTIC_INSTALL_HINTS = {
  debian: 'sudo apt-get install restic',
  fedora: 'sudo dnf install restic',
  macos: 'brew install restic',
  windows: 'winget install restic.restic',
  other: 'https://restic.readthedocs.io/en/stable/020_installation.html',
} as const;

/**
 * The query of the installer downloads: an optional linking code (put into the script, so the one-liner
 * links the machine) and the package for users with several. A malformed code is refused on `code`.
 */
export const agentInstallerQuerySchema = z.object({
  code: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const canonical = canonicalLinkingCode(value);
      if (canonical === null) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.agentInstall.badCode });
        return z.NEVER;
      }
      return formatLinkingCode(canonical);
    }),
  package: z.coerce.number().int().positive({ message: MESSAGES.agentInstall.badPackage }).optional(),
});
export type AgentInstallerQuery = z.infer<typeof agentInstallerQuerySchema>;

/** The installer's address with its query (code, package). */
export function agentInstallerUrl(server: string, path: string, code?: string, backupPackageId?: number): string {
  const query = new URLSearchParams();
  if (code !== undefined) query.set('code', code);
  if (backupPackageId !== undefined) query.set('package', String(backupPackageId));
  const text = query.toString();
  return `${server}${path}${text === '' ? '' : `?${text}`}`;
}

/**
 * The one line that installs the agent as a service and links it with the code: POSIX sh on Linux and
 * macOS (run as root for a system service, else it installs for the user), PowerShell as Administrator
 * on Windows. `paths` are the installers' paths (ROUTES.agentDownloads).
 */
export function agentInstallCommand(
  os: AgentOs,
  server: string,
  paths: { unix: string; windows: string },
  code: string,
  backupPackageId?: number,
): string {
  if (os === 'windows') {
    return `irm '${agentInstallerUrl(server, paths.windows, code, backupPackageId)}' | iex`;
  }
  return `curl -fsSL '${agentInstallerUrl(server, paths.unix, code, backupPackageId)}' | sh`;
}
