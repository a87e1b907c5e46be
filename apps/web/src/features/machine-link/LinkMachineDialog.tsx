import {
  AGENT_OS,
  AGENT_OS_NAMES,
  type AgentOs,
  agentInstallCommand,
  agentLinkCommand,
  MESSAGES,
  mayLinkMachines,
  PAGES,
} from '@portal/domain';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useSession } from '../../app/session';
import { FormModal, GlobalErrors, toast } from '../../ui';
import { AgentDownloadLinks, browserOs, INSTALLERS } from './AgentDownloadLinks';
import { type LinkingCodes, useLinkingCodes } from './mutations';

const TEXT = MESSAGES.machineLink;
const INSTALL = MESSAGES.agentInstall;

async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(TEXT.commandCopied);
  } catch {
    toast.error(TEXT.copyFailed);
  }
}

/** A command to paste into a terminal, selected whole on a click, with its copy button. */
function CopyableCommand({
  command,
  copyLabel,
  wrap,
  'data-testid': testId,
}: {
  command: string;
  copyLabel: string;
  /** How the command's line breaks: the long install line may break inside a word. */
  wrap: string;
  'data-testid': string;
}) {
  return (
    <div className="d-flex align-items-start gap-2">
      <pre className={`flex-grow-1 mb-0 p-2 bg-light border rounded ${wrap} user-select-all`} data-testid={testId}>
        <code>{command}</code>
      </pre>
      <Button variant="outline-secondary" size="sm" onClick={() => copyText(command)}>
        {copyLabel}
      </Button>
    </div>
  );
}

export interface LinkMachineDialogProps {
  show: boolean;
  onHide: () => void;
  linking: LinkingCodes;
  /** The portal's address as the agent should reach it (the page's own origin). */
  server: string;
}

/**
 * The 'Link a machine' dialog (issue #5): the code large, when it expires, the one line that installs the
 * agent and links it (per operating system, the visitor's first; issue 14), the exact `portal-agent link`
 * command for an agent installed already, each with a copy button (naming the package picked here when the
 * user has several), the downloads and the manual, and 'New code'. It cannot be closed while a code is
 * being made.
 */
export function LinkMachineDialog({ show, onHide, linking, server }: LinkMachineDialogProps) {
  const codeId = useId();
  const packageId = useId();
  const osId = useId();
  const [selected, setSelected] = useState<number | null>(null);
  const [os, setOs] = useState<AgentOs>(browserOs);
  const { code } = linking;
  const packages = code?.packages ?? [];
  // One package: the agent needs no --package. Several: the one picked here (the first by name at first).
  const chosen = packages.length > 1 ? (packages.find((p) => p.id === selected) ?? packages[0]) : undefined;
  const command = code ? agentLinkCommand(server, code.code, chosen?.id) : '';
  const installCommand = code ? agentInstallCommand(os, server, INSTALLERS, code.code, chosen?.id) : '';
  return (
    <FormModal
      show={show}
      title={TEXT.dialogTitle}
      onHide={onHide}
      onSubmit={(event) => {
        event.preventDefault();
        linking.make();
      }}
      submitting={linking.making}
      submitLabel={TEXT.newCode}
      submitVariant="outline-primary"
      cancelLabel={TEXT.close}
      onExited={linking.reset}
      data-testid="link-machine-dialog"
    >
      {linking.making && !code && (
        <p className="d-flex align-items-center gap-2 mb-0">
          <Spinner animation="border" size="sm" aria-hidden="true" />
          {TEXT.makingCode}
        </p>
      )}
      {code && (
        <>
          <p>{TEXT.dialogIntro}</p>
          <div className="text-center mb-3">
            <div id={codeId} className="small text-muted">
              {TEXT.codeLabel}
            </div>
            <output
              aria-labelledby={codeId}
              className="d-block display-6 font-monospace fw-semibold user-select-all"
              data-testid="linking-code"
            >
              {code.code}
            </output>
            <div className="small text-muted" data-testid="linking-code-expiry">
              {TEXT.expiresAt} <time dateTime={code.expiresAt}>{new Date(code.expiresAt).toLocaleTimeString()}</time>
            </div>
          </div>
          {chosen && (
            <Form.Group className="mb-3" controlId={packageId}>
              <Form.Label className="small text-muted mb-1">{TEXT.packageLabel}</Form.Label>
              <Form.Select size="sm" value={chosen.id} onChange={(event) => setSelected(Number(event.target.value))}>
                {packages.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
          <figure className="mb-3">
            <figcaption className="small fw-semibold mb-1">{INSTALL.installLabel}</figcaption>
            <p className="small text-muted mb-2">{INSTALL.installIntro}</p>
            <fieldset className="btn-group btn-group-sm mb-2" aria-labelledby={osId}>
              <legend id={osId} className="visually-hidden">
                {MESSAGES.manual.yourSystem}
              </legend>
              {AGENT_OS.map((each) => (
                <Button
                  key={each}
                  variant={each === os ? 'secondary' : 'outline-secondary'}
                  aria-pressed={each === os}
                  onClick={() => setOs(each)}
                >
                  {AGENT_OS_NAMES[each]}
                </Button>
              ))}
            </fieldset>
            <CopyableCommand
              command={installCommand}
              copyLabel={INSTALL.copyInstall}
              wrap="text-wrap text-break"
              data-testid="install-command"
            />
            <p className="small text-muted mt-1 mb-0">{os === 'windows' ? INSTALL.windowsNote : INSTALL.unixNote}</p>
          </figure>
          <figure className="mb-3">
            <figcaption className="small text-muted mb-1">{INSTALL.linkOnlyLabel}</figcaption>
            <CopyableCommand
              command={command}
              copyLabel={TEXT.copyCommand}
              wrap="text-wrap"
              data-testid="link-command"
            />
          </figure>
          <details className="small">
            <summary>{INSTALL.downloads}</summary>
            <AgentDownloadLinks />
          </details>
          <p className="small mb-0 mt-2">
            <a href={PAGES.manual} target="_blank" rel="noreferrer">
              {INSTALL.manualLink}
            </a>
          </p>
        </>
      )}
      <GlobalErrors messages={linking.errors} />
    </FormModal>
  );
}

/**
 * 'Link a machine' for those the domain lets link machines (customer-side users who may change things):
 * opens the dialog with a fresh code. Closing it refreshes the dashboard's machine lists.
 */
export function LinkMachineButton() {
  const { actor } = useSession();
  const [show, setShow] = useState(false);
  const linking = useLinkingCodes();
  if (!actor || !mayLinkMachines(actor)) return null;
  return (
    <>
      <Button
        variant="primary"
        size="sm"
        onClick={() => {
          setShow(true);
          linking.make();
        }}
      >
        {TEXT.linkButton}
      </Button>
      <LinkMachineDialog
        show={show}
        linking={linking}
        server={window.location.origin}
        onHide={() => {
          setShow(false);
          linking.linkingDone();
        }}
      />
    </>
  );
}
