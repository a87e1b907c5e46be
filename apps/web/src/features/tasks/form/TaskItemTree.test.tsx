import { errorMessage, MESSAGES, TASK_FORM_TEXTS, TREE_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../app/testing';
import { fakeLiveChannel } from '../../../testing/liveChannel';
import { ToastHost } from '../../../ui';
import { ok, reply } from '../../users/testing';
import { AddTaskButton } from './TaskFormButtons';
import { fakeMachineServer, SAMPLE_FILES } from './testing';

const TEXT = TASK_FORM_TEXTS;

// Typing into a dialog of this size takes a few seconds on the shared CPU.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open() {
  const live = fakeLiveChannel();
  const events = renderSignedIn(
    <live.Provider>
      <AddTaskButton machineId={5} osFamily="LINUX" timeZone="UTC" onSaved={() => undefined} animation={false} />
      <ToastHost />
    </live.Provider>,
  );
  return events;
}

const tree = () => within(screen.getByTestId('tree-picker'));
/** Opens the dialog and waits for its code, which loads when it first opens. */
async function openDialog(events: ReturnType<typeof open>) {
  await events.click(screen.getByRole('button', { name: TEXT.addButton }));
  await screen.findByTestId('tree-picker');
}
/** Past the tree's 250 ms toggle debounce. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** A promise the test resolves, to hold an answer back. */
function held<T>() {
  let release: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('The task dialog item tree (002 §4.4, §8.3)', () => {
  it("shows 'Loading...' until the first level came, and only then allows Select all and Unselect all", async () => {
    const first = held<Response>();
    fakeMachineServer({ tree: (path) => (path === '' ? first.promise : undefined) });
    const events = open();
    await openDialog(events);
    expect(await tree().findByText(TREE_TEXTS.loading)).toBeInTheDocument();
    expect(tree().getByRole('button', { name: 'Select all' })).toBeDisabled();
    expect(tree().getByRole('button', { name: 'Unselect all' })).toBeDisabled();
    first.release(ok({ treeItemsRequestId: 'x', treeItems: SAMPLE_FILES[''], responseSummaryCode: 'OK' }));
    expect(await tree().findByLabelText('home')).toBeInTheDocument();
    expect(tree().getByRole('button', { name: 'Select all' })).toBeEnabled();
    await events.click(tree().getByRole('button', { name: 'Select all' }));
    expect(tree().getByLabelText('home')).toBeChecked();
    expect(tree().getByLabelText('srv')).toBeChecked();
    await events.click(tree().getByRole('button', { name: 'Unselect all' }));
    expect(tree().getByLabelText('home')).not.toBeChecked();
  });

  it("loads a folder's children when it is first opened, with 'Loading...' meanwhile", async () => {
    const children = held<Response>();
    const server = fakeMachineServer({ tree: (path) => (path === '/home' ? children.promise : undefined) });
    const events = open();
    await openDialog(events);
    await events.click(await tree().findByRole('button', { name: 'Open home' }));
    expect(tree().getByText(TREE_TEXTS.loading)).toBeInTheDocument();
    children.release(ok({ treeItemsRequestId: 'x', treeItems: SAMPLE_FILES['/home'], responseSummaryCode: 'OK' }));
    expect(await tree().findByLabelText('ana')).toBeInTheDocument();
    expect(tree().queryByText(TREE_TEXTS.loading)).not.toBeInTheDocument();
    // Closed and opened again: the children are kept, not asked again.
    await events.click(tree().getByRole('button', { name: 'Close home' }));
    await events.click(tree().getByRole('button', { name: 'Open home' }));
    expect(tree().getByLabelText('ana')).toBeInTheDocument();
    expect(server.requests.filter((r) => (r.body as { path?: string })?.path === '/home')).toHaveLength(1);
  });

  it('a selected folder unselects and disables its children; a double click changes nothing', async () => {
    fakeMachineServer();
    const events = open();
    await openDialog(events);
    await events.click(await tree().findByRole('button', { name: 'Open home' }));
    await events.click(await tree().findByLabelText('ana'));
    await settle();
    expect(tree().getByLabelText('ana')).toBeChecked();
    await events.click(tree().getByLabelText('home'));
    await waitFor(() => expect(tree().getByLabelText('ana')).toBeDisabled());
    expect(tree().getByLabelText('ana')).not.toBeChecked();
    expect(tree().getByLabelText('home')).toBeChecked();
    await events.dblClick(tree().getByLabelText('home'));
    await settle();
    expect(tree().getByLabelText('home')).toBeChecked();
    await events.click(tree().getByLabelText('home'));
    await waitFor(() => expect(tree().getByLabelText('ana')).toBeEnabled());
  });

  it('hides hidden items unless asked; an excluded item is disabled until its exclusion is removed', async () => {
    fakeMachineServer();
    const events = open();
    await openDialog(events);
    await events.click(await tree().findByRole('button', { name: 'Open home' }));
    await tree().findByLabelText('ana');
    expect(tree().queryByLabelText('.cache')).not.toBeInTheDocument();
    await events.click(screen.getByLabelText(TEXT.showHidden));
    expect(tree().getByLabelText('.cache')).toBeInTheDocument();

    await events.click(tree().getByLabelText('bo'));
    await settle();
    await events.click(
      within(screen.getByTestId('exclusions-editor')).getByRole('button', { name: TEXT.addExclusion }),
    );
    const entry = within(await screen.findByTestId('exclusion-dialog'));
    await events.type(entry.getByLabelText(TEXT.exclusionLabel), '/home/bo');
    await events.click(entry.getByRole('button', { name: TEXT.addExclusion }));
    await waitFor(() => expect(tree().getByLabelText('bo')).toBeDisabled());
    expect(tree().getByLabelText('bo')).not.toBeChecked();
    await events.click(screen.getByRole('button', { name: `${TEXT.removeExclusion} /home/bo` }));
    expect(tree().getByLabelText('bo')).toBeEnabled();
  });

  it("after the machine's time-out says 'Error in retrieving tree items from backup machine.' and shows 'No items to select'", async () => {
    fakeMachineServer({
      tree: () =>
        reply(504, {
          responseSummaryCode: 'MACHINE_ERROR',
          messages: [errorMessage(MESSAGES.liveChannel.treeItemsError, '', 'MACHINE_ERROR')],
        }),
    });
    const events = open();
    await openDialog(events);
    expect(await screen.findByText(MESSAGES.liveChannel.treeItemsError)).toBeInTheDocument();
    expect(tree().getByText(TREE_TEXTS.noItems)).toBeInTheDocument();
  });

  it("says 'Error in communicating with server.' when the tree call gets no answer", async () => {
    fakeMachineServer({ tree: () => Promise.reject(new TypeError('network down')) });
    const events = open();
    await openDialog(events);
    expect(await screen.findByText(MESSAGES.communicationError)).toBeInTheDocument();
    expect(tree().getByText(TREE_TEXTS.noItems)).toBeInTheDocument();
  });
});
