import {
  AGENT_OS_NAMES,
  type AgentOs,
  agentInstallerUrl,
  agentOsOf,
  LINKING_CODE,
  type ManualChapter,
  MESSAGES,
  manualHeadingLevel,
  manualHeadingRem,
  type NumberedChapter,
  numberChapters,
  RESTIC_INSTALL_HINTS,
  ROUTES,
} from '@portal/domain';
import type { ReactNode } from 'react';
import { useBrandedDocument } from '../../app/branding';
import { useSession } from '../../app/session';
import { AgentDownloadLinks } from '../machine-link/AgentDownloadLinks';

const TEXT = MESSAGES.manual;
const CHAPTERS = TEXT.chapters;
const CODE = Array.from({ length: LINKING_CODE.length / LINKING_CODE.groupSize }, () =>
  'X'.repeat(LINKING_CODE.groupSize),
).join('-');

function Command({ children }: { children: string }) {
  return (
    <pre className="p-2 bg-light border rounded text-wrap text-break">
      <code>{children}</code>
    </pre>
  );
}

/** The chapters, with the install chapter of the visitor's system first. */
function chapters(origin: string, os: AgentOs | null): ManualChapter<ReactNode>[] {
  const unixInstaller = agentInstallerUrl(origin, ROUTES.agentDownloads.unixInstaller.build());
  const windowsInstaller = agentInstallerUrl(origin, ROUTES.agentDownloads.windowsInstaller.build());
  const perOs: Record<AgentOs, ManualChapter<ReactNode>> = {
    linux: {
      id: 'install-linux',
      title: CHAPTERS.installLinux,
      body: (
        <>
          <p>
            Install restic first (<code>{RESTIC_INSTALL_HINTS.debian}</code> on Debian and Ubuntu,{' '}
            <code>{RESTIC_INSTALL_HINTS.fedora}</code> on Fedora). Then, in the portal, open <em>Link a machine</em> on
            the dashboard and run the line it shows, as root:
          </p>
          <Command>{`curl -fsSL '${agentInstallerUrl(origin, ROUTES.agentDownloads.unixInstaller.build(), CODE)}' | sudo sh`}</Command>
          <p>
            On Linux x64 the agent is a single executable with Node.js inside: nothing else is needed. On other
            processors the installer uses the agent for Node.js 20 or later, which must be installed.
          </p>
        </>
      ),
      chapters: [
        {
          id: 'install-linux-user',
          title: CHAPTERS.installLinuxUser,
          body: (
            <p>
              Without <code>sudo</code> the agent is installed for your user only:{' '}
              <code>~/.local/bin/portal-agent</code> and a systemd user service, which starts at boot only when
              lingering is on (<code>sudo loginctl enable-linger $USER</code>). It backs up what your user may read.
            </p>
          ),
        },
        {
          id: 'install-linux-no-systemd',
          title: CHAPTERS.installLinuxNoSystemd,
          body: (
            <p>
              In a container or on a system without systemd the installer still links the machine and starts the agent,
              in the background, and says so: it then does not start by itself after a reboot, and the installer prints
              the line that starts it.
            </p>
          ),
        },
      ],
    },
    macos: {
      id: 'install-macos',
      title: CHAPTERS.installMacos,
      body: (
        <>
          <p>
            Install restic and Node.js 20 or later (<code>{RESTIC_INSTALL_HINTS.macos} node</code>), then run the line
            of <em>Link a machine</em> in the Terminal. With <code>sudo</code> the agent runs as a launchd daemon for
            the whole Mac; without, as a launchd agent of your user.
          </p>
          <Command>{`curl -fsSL '${agentInstallerUrl(origin, ROUTES.agentDownloads.unixInstaller.build(), CODE)}' | sudo sh`}</Command>
        </>
      ),
    },
    windows: {
      id: 'install-windows',
      title: CHAPTERS.installWindows,
      body: (
        <>
          <p>
            Install restic (<code>{RESTIC_INSTALL_HINTS.windows}</code>) and Node.js 20 or later, then open PowerShell{' '}
            <strong>as Administrator</strong> and run the line <em>Link a machine</em> shows for Windows:
          </p>
          <Command>{`irm '${agentInstallerUrl(origin, ROUTES.agentDownloads.windowsInstaller.build(), CODE)}' | iex`}</Command>
          <p>
            The agent goes to <code>%ProgramFiles%\PortalAgent</code>, its configuration to{' '}
            <code>%ProgramData%\PortalAgent</code> (readable by Administrators and the system only).
          </p>
        </>
      ),
    },
  };
  const order: AgentOs[] = ['linux', 'macos', 'windows'];
  if (os) order.sort((a, b) => Number(b === os) - Number(a === os));
  return [
    {
      id: 'overview',
      title: CHAPTERS.overview,
      body: (
        <p>
          The agent (<code>portal-agent</code>) runs on each computer you back up. It keeps a connection to the portal
          open, receives the backup tasks you set up there, runs each one on its schedule with{' '}
          <a href="https://restic.net">restic</a>, and reports progress, results and messages back, so the dashboard
          shows every machine and task as it is. It also lists the machine's files when you choose what to back up, and
          runs restores you start in the portal.
        </p>
      ),
    },
    {
      id: 'install',
      title: CHAPTERS.install,
      body: (
        <p>
          One line installs the agent as a service that starts with the computer and links it to your account. It checks
          that restic is installed first and changes nothing when it is not. Running it again is safe: it replaces the
          agent, keeps one service and links the same machine again.
        </p>
      ),
      chapters: [
        ...order.map((each) => perOs[each]),
        {
          id: 'install-files',
          title: CHAPTERS.installFiles,
          body: (
            <>
              <p>
                As root on Linux: the agent at <code>/usr/local/bin/portal-agent</code>, its configuration (with the
                machine's credential, readable only by root) at <code>/etc/portal-agent/config.json</code> and its state
                and logs beside it, the service at <code>/etc/systemd/system/portal-agent.service</code>. For one user:{' '}
                <code>~/.local/bin</code>, <code>~/.config/portal-agent</code> and a systemd user service. With{' '}
                <code>--prefix DIR</code> everything goes under <code>DIR</code>.
              </p>
              <p>The installers and the agent can also be downloaded:</p>
              <AgentDownloadLinks />
            </>
          ),
        },
      ],
    },
    {
      id: 'link',
      title: CHAPTERS.link,
      body: (
        <>
          <p>
            A linking code ties the machine to your account without typing your password on it. Make one in the portal
            with <em>Link a machine</em>: it works once, for {LINKING_CODE.lifetimeMinutes} minutes. The install line
            carries it; an agent installed already is linked with:
          </p>
          <Command>{`portal-agent link --server ${origin} --code ${CODE}`}</Command>
          <p>
            If you may use several backup packages, the dialog asks which one and adds <code>--package</code>. Linking
            the same computer again keeps it as the same machine in the portal.
          </p>
        </>
      ),
    },
    {
      id: 'service',
      title: CHAPTERS.service,
      body: (
        <>
          <p>
            The service runs <code>portal-agent run</code>: on Linux with systemd (
            <code>systemctl status portal-agent</code>), on macOS with launchd, on Windows as the scheduled task{' '}
            <em>PortalAgent</em> that runs at startup as the system account. Where no service manager runs (a container
            without systemd), the installer says so, starts the agent in the background and prints the line that starts
            it again after a reboot.
          </p>
          <p>
            <code>portal-agent status</code> shows the portal, the machine, whether it is connected and the next runs of
            its tasks.
          </p>
        </>
      ),
    },
    {
      id: 'tasks',
      title: CHAPTERS.tasks,
      body: (
        <p>
          You add backup tasks to the machine in the portal: what to back up, what to leave out, the schedule, how many
          snapshots to keep and the upload limit. The agent keeps the last task list it received, so scheduled backups
          run even while the portal cannot be reached; what happened is reported when it can. Each run is one{' '}
          <code>restic backup</code> into the machine's own encrypted repository, tagged with the task.
        </p>
      ),
    },
    {
      id: 'restore',
      title: CHAPTERS.restore,
      body: (
        <p>
          Open the task in the portal and pick a snapshot: download the files you choose as a zip, or restore them to
          the machine, where the agent writes them back with restic.
        </p>
      ),
    },
    {
      id: 'uninstall',
      title: CHAPTERS.uninstall,
      body: (
        <>
          <p>On Linux and macOS (with the same options you installed with, e.g. no sudo for a user install):</p>
          <Command>{`curl -fsSL '${unixInstaller}' | sudo sh -s -- --uninstall`}</Command>
          <p>On Windows, in PowerShell as Administrator:</p>
          <Command>{`$env:PORTAL_AGENT_UNINSTALL = '1'; irm '${windowsInstaller}' | iex`}</Command>
          <p>
            This stops and removes the service, gives up the machine's credential at the portal and deletes the agent
            and its files. The machine and its backups stay in the portal until you delete the machine there.
          </p>
        </>
      ),
    },
  ];
}

function ChapterIndex({ chapters }: { chapters: NumberedChapter<ReactNode>[] }) {
  return (
    <ol className="list-unstyled ms-3 mb-0">
      {chapters.map((chapter) => (
        <li key={chapter.id}>
          <a href={`#${chapter.id}`}>
            {chapter.number} {chapter.title}
          </a>
          {chapter.chapters.length > 0 && <ChapterIndex chapters={chapter.chapters} />}
        </li>
      ))}
    </ol>
  );
}

function Chapter({ chapter, os }: { chapter: NumberedChapter<ReactNode>; os: AgentOs | null }) {
  const Heading = `h${manualHeadingLevel(chapter.depth)}` as const;
  const forYou = os !== null && chapter.id === `install-${os}`;
  return (
    <section id={chapter.id} aria-labelledby={`${chapter.id}-heading`} className="mb-4">
      <Heading id={`${chapter.id}-heading`} style={{ fontSize: `${manualHeadingRem(chapter.depth)}rem` }}>
        {chapter.number} {chapter.title}
        {forYou && <span className="badge text-bg-primary ms-2 align-middle fs-6">{TEXT.forYourSystem}</span>}
      </Heading>
      {chapter.body}
      {chapter.chapters.map((child) => (
        <Chapter key={child.id} chapter={child} os={os} />
      ))}
    </section>
  );
}

/**
 * The desktop-app user manual (000 §1): a navbar titled 'Desktop app user manual' with the visitor's
 * operating system as a badge, a chapter index and numbered chapters (heading sizes by depth from the
 * domain). Our agent's manual: installing on each system (the visitor's first), linking, the service,
 * what the agent does, restoring and uninstalling. Public: it is read before anyone signs in.
 */
export function ManualPage() {
  // A page of its own, outside the shell and the sign-in frame: it names the tab '<manual> · <brand>' itself.
  useBrandedDocument(useSession().data.branding, TEXT.title);
  const os = agentOsOf(navigator.platform || navigator.userAgent);
  const numbered = numberChapters(chapters(window.location.origin, os));
  return (
    <>
      <nav className="navbar navbar-dark bg-dark px-3">
        <h1 className="navbar-brand mb-0 h1">{TEXT.title}</h1>
        <span className="badge text-bg-light" data-testid="os-badge">
          {TEXT.yourSystem}: {os ? AGENT_OS_NAMES[os] : TEXT.unknownSystem}
        </span>
      </nav>
      <main className="container py-4" style={{ maxWidth: '60rem' }}>
        <nav aria-labelledby="manual-contents" className="mb-4">
          <h2 id="manual-contents" className="h6 text-uppercase text-muted">
            {TEXT.contents}
          </h2>
          <ChapterIndex chapters={numbered} />
        </nav>
        {numbered.map((chapter) => (
          <Chapter key={chapter.id} chapter={chapter} os={os} />
        ))}
      </main>
    </>
  );
}
