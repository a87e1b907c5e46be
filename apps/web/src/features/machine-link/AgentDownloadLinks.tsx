import { type AgentOs, agentOsOf, MESSAGES, ROUTES } from '@portal/domain';

const INSTALL = MESSAGES.agentInstall;

export const INSTALLERS = {
  unix: ROUTES.agentDownloads.unixInstaller.build(),
  windows: ROUTES.agentDownloads.windowsInstaller.build(),
};

/** The operating system the visitor's browser runs on (Linux when it does not say). */
export function browserOs(): AgentOs {
  return agentOsOf(navigator.platform || navigator.userAgent) ?? 'linux';
}

/** The agent's downloads (issue 14), for those who install by hand: the dialog and the manual show them. */
export function AgentDownloadLinks() {
  const downloads = [
    [ROUTES.agentDownloads.linuxExecutable.build(), INSTALL.linuxExecutable],
    [ROUTES.agentDownloads.bundle.build(), INSTALL.bundle],
    [INSTALLERS.unix, INSTALL.unixInstaller],
    [INSTALLERS.windows, INSTALL.windowsInstaller],
  ] as const;
  return (
    <ul className="small mb-0" aria-label={INSTALL.downloads}>
      {downloads.map(([href, label]) => (
        <li key={href}>
          <a href={href} download>
            {label}
          </a>
        </li>
      ))}
    </ul>
  );
}
