import {
  COMMAND_RESPONSE_TYPES,
  commandFinishedMessage,
  commandOutputLineMessage,
  deleteCommandQuestion,
  MESSAGES,
  machineQueue,
  REALTIME_COMMAND_TEXTS,
  type RealtimeCommandView,
  stopCommandQuestion,
  WEB_UI_COMMAND_RESPONSE,
} from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeLiveChannel } from '../../testing/liveChannel';
import { ToastHost } from '../../ui';
import { fakeServer, message, ok, reply } from '../users/testing';
import { ResticDiagnosticsButton } from './ResticDiagnosticsButton';
import { ResticDiagnosticsDialog } from './ResticDiagnosticsDialog';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MACHINE = { id: 9, name: 'FILESERVER-01', customerId: 7, backupPackageId: 3 };
const BASE = '/boltadmin/customers/7/backuppackages/3/backupmachines/9/realtimecommands';
const QUEUE = machineQueue('provider', MACHINE.id);
const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

function command(overrides: Partial<RealtimeCommandView> = {}): RealtimeCommandView {
  return {
    commandId: 'c-1',
    baseCommand: 'snapshots',
    commandArguments: [],
    commandFlags: ['--json'],
    commandOutput: ['[]'],
    timeStarted: '2026-11-25T10:00:00.000Z',
    timeFinished: '2026-11-25T10:00:02.000Z',
    exitCode: 'SUCCESS',
    ...overrides,
  };
}

const running = (overrides: Partial<RealtimeCommandView> = {}) =>
  command({
    commandId: 'c-2',
    baseCommand: 'check',
    commandFlags: [],
    commandOutput: [],
    timeFinished: null,
    exitCode: null,
    ...overrides,
  });

function serve(
  commands: RealtimeCommandView[],
  handle: (method: string, path: string, body: unknown) => Response | undefined = () => undefined,
) {
  return fakeServer(({ method, url, body }) => {
    if (method === 'GET' && url.pathname === BASE) return ok({ elements: commands });
    return handle(method, url.pathname, body);
  });
}

function open(live = fakeLiveChannel()) {
  const events = renderSignedIn(
    <live.Provider>
      <ResticDiagnosticsDialog show machine={MACHINE} onHide={() => undefined} animation={false} />
      <ToastHost />
    </live.Provider>,
    { role: 'ROLE_BOLT_ADMIN_USER' },
  );
  return { events, live };
}

const submitButton = () => screen.getByRole('button', { name: LABELS.submitButton });
const tabs = () => screen.getAllByRole('tab');
const activePanel = () => {
  const panel = document.querySelector('.tab-pane.active');
  if (!(panel instanceof HTMLElement)) throw new Error('no active tab');
  return within(panel);
};

describe('ResticDiagnosticsDialog (001 §2, §4)', () => {
  it('says "No commands available" when there are none, titled with the machine name', async () => {
    serve([]);
    open();
    expect(await screen.findByText('No commands available')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: MACHINE.name })).toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
  });

  it('shows a tab per command, the last selected, with command line, times, status, exit code and output', async () => {
    serve([
      command(),
      command({
        commandId: 'c-3',
        baseCommand: 'stats',
        commandArguments: ['latest'],
        exitCode: 'SOME_FILES_NOT_ACCESSIBLE',
        commandOutput: ['a', 'b'],
      }),
    ]);
    open();
    await waitFor(() => expect(tabs()).toHaveLength(2));
    expect(tabs().map((t) => t.textContent)).toEqual(['snapshots', 'stats']);
    expect(tabs()[1]).toHaveAttribute('aria-selected', 'true');
    const panel = activePanel();
    expect(panel.getByText('restic stats latest --json')).toBeInTheDocument();
    expect(panel.getByTestId('status-badge')).toHaveAttribute('data-status', 'FINISHED_WARNINGS');
    expect(panel.getByTestId('status-badge')).toHaveClass('bg-warning');
    expect(panel.getByTestId('exit-code')).toHaveTextContent('Some source files could not be read');
    expect(panel.getByTestId('command-output')).toHaveValue('a\nb');
    expect(panel.getByRole('textbox')).toHaveAttribute('readonly');
    expect(panel.getByText(new Date('2026-11-25T10:00:00.000Z').toLocaleString())).toBeInTheDocument();
  });

  it('marks a failed command red with its exit code text', async () => {
    serve([command({ exitCode: 'REPO_LOCKED_EXCLUSIVELY' })]);
    open();
    const badge = await screen.findByTestId('status-badge');
    expect(badge).toHaveAttribute('data-status', 'FAILED');
    expect(badge).toHaveClass('bg-danger');
    expect(screen.getByTestId('exit-code')).toHaveTextContent('Repo is locked exclusively');
  });

  it('appends streamed lines, finishes on the finished message, and only then allows Submit and Delete', async () => {
    serve([command(), running()]);
    const { live } = open();
    await waitFor(() => expect(tabs()).toHaveLength(2));
    // Running: a spinner on its tab, Stop in it, no delete icon; Submit disabled.
    expect(within(tabs()[1] as HTMLElement).getByRole('status', { name: LABELS.running })).toBeInTheDocument();
    expect(activePanel().getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(activePanel().getByTestId('status-badge')).toHaveAttribute('data-status', 'IN_PROGRESS');
    expect(activePanel().getByTestId('status-badge')).toHaveClass('bg-secondary');
    expect(screen.queryByRole('button', { name: `${LABELS.deleteIcon} check` })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: `${LABELS.deleteIcon} snapshots` })).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();

    live.deliver(QUEUE, commandOutputLineMessage('c-2', 'using temporary cache', 1));
    live.deliver(QUEUE, commandOutputLineMessage('c-2', 'no errors were found', 2));
    live.deliver(QUEUE, commandOutputLineMessage('c-1', 'late line of another command', 2));
    await waitFor(() =>
      expect(activePanel().getByTestId('command-output')).toHaveValue('using temporary cache\nno errors were found'),
    );

    live.deliver(QUEUE, commandFinishedMessage('c-2', new Date('2026-11-25T10:05:00.000Z'), 'SUCCESS'));
    await waitFor(() =>
      expect(activePanel().getByTestId('status-badge')).toHaveAttribute('data-status', 'FINISHED_SUCCESS'),
    );
    expect(activePanel().getByTestId('status-badge')).toHaveClass('bg-success');
    expect(activePanel().getByTestId('exit-code')).toHaveTextContent('Success');
    expect(activePanel().getByText(new Date('2026-11-25T10:05:00.000Z').toLocaleString())).toBeInTheDocument();
    expect(activePanel().queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: `${LABELS.deleteIcon} check` })).toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
  });

  it('keeps every line of a long burst, in order', async () => {
    serve([running()]);
    const { live } = open();
    await waitFor(() => expect(tabs()).toHaveLength(1));
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`);
    for (const [i, line] of lines.entries()) live.deliver(QUEUE, commandOutputLineMessage('c-2', line, i + 1));
    await waitFor(() => expect(activePanel().getByTestId('command-output')).toHaveValue(lines.join('\n')));
  });

  it('shows "Invalid websocket message received" for a command response of another type; leaves other traffic alone', async () => {
    serve([running()]);
    const { live } = open();
    await waitFor(() => expect(tabs()).toHaveLength(1));
    live.deliver(QUEUE, { requestId: 'r-1', responsePayloadJson: '{"success":true,"messages":[]}' });
    live.deliver(QUEUE, { kind: WEB_UI_COMMAND_RESPONSE, responseType: 'SOMETHING_ELSE', responsePayloadJson: '{}' });
    expect(await screen.findByText(MESSAGES.liveChannel.invalidMessage)).toBeInTheDocument();
    expect(screen.getAllByText(MESSAGES.liveChannel.invalidMessage)).toHaveLength(1);
    expect(activePanel().getByTestId('command-output')).toHaveValue('');
    expect(COMMAND_RESPONSE_TYPES.outputLine).not.toBe('SOMETHING_ELSE');
  });

  it('reloads the list for a line of a command it does not know (submitted elsewhere)', async () => {
    let commands = [command()];
    fakeServer(({ method, url }) =>
      method === 'GET' && url.pathname === BASE ? ok({ elements: commands }) : undefined,
    );
    const { live } = open();
    await waitFor(() => expect(tabs()).toHaveLength(1));
    commands = [command(), running({ commandOutput: ['first'] })];
    live.deliver(QUEUE, commandOutputLineMessage('c-2', 'first', 1));
    await waitFor(() => expect(tabs()).toHaveLength(2));
  });

  it('opening on a running command, reads the list once subscribed and shows each line once, in order, also those heard during the read', async () => {
    let answer: (response: Response) => void = () => undefined;
    const server = fakeServer(({ method, url }) =>
      method === 'GET' && url.pathname === BASE
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    const live = fakeLiveChannel({ confirmSubscriptions: false });
    open(live);
    await waitFor(() => expect(live.subscribed(QUEUE)).toBe(true));
    // Read before the subscription is in place, the list could miss lines published in between.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.to('GET', BASE)).toHaveLength(0);
    live.confirm(QUEUE);
    await waitFor(() => expect(server.to('GET', BASE)).toHaveLength(1));

    // Lines 1 and 2 were stored before; 3 to 5 are heard while the server reads, and it reads up to 4.
    for (const n of [3, 4, 5]) live.deliver(QUEUE, commandOutputLineMessage('c-2', `line ${n}`, n));
    answer(ok({ elements: [running({ commandOutput: ['line 1', 'line 2', 'line 3', 'line 4'] })] }));
    const output = await screen.findByTestId('command-output');
    await waitFor(() => expect(output).toHaveValue(['line 1', 'line 2', 'line 3', 'line 4', 'line 5'].join('\n')));

    // A line heard twice is shown once; the next one follows.
    live.deliver(QUEUE, commandOutputLineMessage('c-2', 'line 5', 5));
    live.deliver(QUEUE, commandOutputLineMessage('c-2', 'line 6', 6));
    await waitFor(() => expect(output).toHaveValue(Array.from({ length: 6 }, (_, i) => `line ${i + 1}`).join('\n')));
    expect(server.to('GET', BASE)).toHaveLength(1);
  });

  it('reads the list again when a line is missing, and when the subscription is made again after a drop', async () => {
    let stored = ['line 1'];
    const server = fakeServer(({ method, url }) =>
      method === 'GET' && url.pathname === BASE ? ok({ elements: [running({ commandOutput: stored })] }) : undefined,
    );
    const { live } = open();
    const output = await screen.findByTestId('command-output');
    expect(output).toHaveValue('line 1');

    stored = ['line 1', 'line 2', 'line 3'];
    live.deliver(QUEUE, commandOutputLineMessage('c-2', 'line 3', 3));
    await waitFor(() => expect(output).toHaveValue('line 1\nline 2\nline 3'));
    expect(server.to('GET', BASE)).toHaveLength(2);

    stored = ['line 1', 'line 2', 'line 3', 'line 4'];
    live.confirm(QUEUE);
    await waitFor(() => expect(output).toHaveValue('line 1\nline 2\nline 3\nline 4'));
    expect(server.to('GET', BASE)).toHaveLength(3);
  });

  it('toasts "Error in communicating with server." when the commands cannot be loaded', async () => {
    fakeServer(() => reply(500, {}));
    open();
    expect(await screen.findByText(MESSAGES.communicationError)).toBeInTheDocument();
  });

  it('toasts "Could not establish websocket connection" once when the channel fails', async () => {
    serve([]);
    const { live } = open();
    await screen.findByText('No commands available');
    live.fail(QUEUE);
    live.fail(QUEUE);
    expect(await screen.findByText('Could not establish websocket connection')).toBeInTheDocument();
    expect(screen.getAllByText('Could not establish websocket connection')).toHaveLength(1);
  });
});

describe('Submit restic command dialog (001 §5, §8)', () => {
  it('requires the base command, splits arguments and flags on single spaces, and selects the new tab', async () => {
    const server = serve([command()], (method, path, body) => {
      if (method !== 'PUT' || path !== BASE) return undefined;
      const sent = body as {
        requestId: string;
        baseCommand: string;
        commandArguments: string[];
        commandFlags: string[];
      };
      return ok(running({ ...sent, commandId: sent.requestId }));
    });
    const { events } = open();
    await waitFor(() => expect(tabs()).toHaveLength(1));
    await events.click(submitButton());
    const dialog = within(await screen.findByTestId('submit-restic-command-dialog'));
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('base command is required')).toBeInTheDocument();
    expect(server.to('PUT', BASE)).toHaveLength(0);

    await events.type(dialog.getByLabelText('base command'), 'ls');
    await events.type(dialog.getByLabelText('Arguments'), 'latest /home');
    await events.type(dialog.getByLabelText('Flags'), '--long');
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Command submitted successfully.')).toBeInTheDocument();
    const [put] = server.to('PUT', BASE);
    expect(put?.body).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      baseCommand: 'ls',
      commandArguments: ['latest', '/home'],
      commandFlags: ['--long'],
    });
    await waitFor(() => expect(screen.queryByTestId('submit-restic-command-dialog')).not.toBeInTheDocument());
    expect(tabs()).toHaveLength(2);
    expect(tabs()[1]).toHaveAttribute('aria-selected', 'true');
    expect(activePanel().getByText('restic ls latest /home --long')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
  });

  it('puts field messages on their field, toasts the partial warning and shows the unknown error', async () => {
    let answer = () => reply(400, { messages: [message('baseCommand', "The restic command 'forget' is not allowed")] });
    serve([], (method, path) => (method === 'PUT' && path === BASE ? answer() : undefined));
    const { events } = open();
    await events.click(await screen.findByRole('button', { name: LABELS.submitButton }));
    const dialog = within(await screen.findByTestId('submit-restic-command-dialog'));
    await events.type(dialog.getByLabelText('base command'), 'forget');
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText("The restic command 'forget' is not allowed")).toHaveClass('invalid-feedback');

    answer = () => reply(500, {});
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('Unkown error encountered while submitting command.')).toBeInTheDocument();

    answer = () => ok(running(), [message('', 'The agent is busy')]);
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Command submitted but some errors occurred.')).toBeInTheDocument();
    expect(dialog.getByTestId('global-errors')).toHaveTextContent('The agent is busy');
  });

  it('refuses a flag outside the allow-list on the Flags field before sending, and shows the server’s (issue 29)', async () => {
    const refused = () => reply(400, { messages: [message('commandFlags', 'Not on this portal')] });
    const server = serve([], (method, path) => (method === 'PUT' && path === BASE ? refused() : undefined));
    const { events } = open();
    await events.click(await screen.findByRole('button', { name: LABELS.submitButton }));
    const dialog = within(await screen.findByTestId('submit-restic-command-dialog'));
    await events.type(dialog.getByLabelText('base command'), 'snapshots');
    // Pasted, not typed: a keystroke per character takes seconds on a loaded CI machine.
    await events.click(dialog.getByLabelText('Flags'));
    await events.paste('-vr sftp:x@127.0.0.1:/x');
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(REALTIME_COMMAND_TEXTS.flagNotAllowed('-r', 'snapshots', '-vr'))).toHaveClass(
      'invalid-feedback',
    );
    expect(server.to('PUT', BASE)).toHaveLength(0);

    await events.clear(dialog.getByLabelText('Flags'));
    await events.type(dialog.getByLabelText('Flags'), '--json');
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('Not on this portal')).toHaveClass('invalid-feedback');
  }, 20_000);

  it('toasts "Error in communicating with server." when no answer comes', async () => {
    serve([], (method) => {
      if (method === 'PUT') throw new TypeError('network down');
      return undefined;
    });
    const { events } = open();
    await events.click(await screen.findByRole('button', { name: LABELS.submitButton }));
    const dialog = within(await screen.findByTestId('submit-restic-command-dialog'));
    await events.type(dialog.getByLabelText('base command'), 'snapshots');
    await events.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(MESSAGES.communicationError)).toBeInTheDocument();
  });
});

describe('Cancel and Delete command dialogs (001 §2, §8)', () => {
  it('stops a running command with its commandId', async () => {
    let answer = () => reply(500, {});
    const server = serve([running()], (method, path) =>
      method === 'PUT' && path === `${BASE}/stop` ? answer() : undefined,
    );
    const { events } = open();
    await events.click(await screen.findByRole('button', { name: 'Stop' }));
    const dialog = within(await screen.findByTestId('stop-command-dialog'));
    expect(dialog.getByText(stopCommandQuestion('restic check'))).toBeInTheDocument();
    await events.click(dialog.getByRole('button', { name: 'Stop' }));
    expect(await dialog.findByText('Unkown error encountered while cancelling command.')).toBeInTheDocument();

    answer = () => ok(null, [message('', 'The agent did not answer')]);
    await events.click(dialog.getByRole('button', { name: 'Stop' }));
    expect(await screen.findByText('Command cancellation submitted but some errors occurred.')).toBeInTheDocument();

    answer = () => ok(null);
    await events.click(dialog.getByRole('button', { name: 'Stop' }));
    expect(await screen.findByText(TEXT.cancellationSubmitted)).toBeInTheDocument();
    expect(server.to('PUT', `${BASE}/stop`).map((r) => r.body)).toEqual(Array(3).fill({ commandId: 'c-2' }));
    await waitFor(() => expect(screen.queryByTestId('stop-command-dialog')).not.toBeInTheDocument());
  });

  it('deletes a finished command from its tab’s icon; its tab goes', async () => {
    let answer = () => reply(500, {});
    let commands = [command(), command({ commandId: 'c-4', baseCommand: 'version', commandFlags: [] })];
    const server = fakeServer(({ method, url }) => {
      if (method === 'GET' && url.pathname === BASE) return ok({ elements: commands });
      if (method === 'PUT' && url.pathname === `${BASE}/delete`) return answer();
      return undefined;
    });
    const { events } = open();
    await events.click(await screen.findByRole('button', { name: `${LABELS.deleteIcon} snapshots` }));
    const dialog = within(await screen.findByTestId('delete-command-dialog'));
    expect(dialog.getByText(deleteCommandQuestion('restic snapshots --json'))).toBeInTheDocument();
    await events.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await dialog.findByText('Unkown error encountered while deleting command.')).toBeInTheDocument();

    answer = () => {
      commands = commands.filter((c) => c.commandId !== 'c-1');
      return ok(null);
    };
    await events.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(TEXT.deleted)).toBeInTheDocument();
    expect(server.to('PUT', `${BASE}/delete`).at(-1)?.body).toEqual({ commandId: 'c-1' });
    await waitFor(() => expect(tabs().map((t) => t.textContent)).toEqual(['version']));
  });
});

describe('ResticDiagnosticsButton', () => {
  it('subscribes to the machine’s provider queue while the dialog shows, and unsubscribes when it hides', async () => {
    serve([]);
    const live = fakeLiveChannel();
    const events = renderSignedIn(
      <live.Provider>
        <ResticDiagnosticsButton machine={MACHINE} />
      </live.Provider>,
      { role: 'ROLE_BOLT_ADMIN_USER' },
    );
    expect(live.subscribed(QUEUE)).toBe(false);
    await events.click(screen.getByRole('button', { name: LABELS.openButton }));
    expect(await screen.findByText('No commands available')).toBeInTheDocument();
    expect(live.subscribed(QUEUE)).toBe(true);
    await events.click(screen.getByText(LABELS.closeButton, { selector: '.modal-footer button' }));
    expect(live.subscribed(QUEUE)).toBe(false);
  });
});
