import { EXCLUSION_LIMITS, EXCLUSION_MESSAGES, type ExclusionPlatform, TASK_FORM_TEXTS } from '@portal/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ExclusionsEditor } from './ExclusionsEditor';

const TEXT = TASK_FORM_TEXTS;
const M = EXCLUSION_MESSAGES;

function Harness({ platform, initial }: { platform: ExclusionPlatform; initial: string[] }) {
  const [list, setList] = useState(initial);
  return <ExclusionsEditor exclusions={list} platform={platform} onChange={setList} animation={false} />;
}

function renderEditor(platform: ExclusionPlatform = 'UNIX', initial: string[] = ['*.tmp']) {
  render(<Harness platform={platform} initial={initial} />);
  return userEvent.setup();
}

/** Opens the entry modal, enters `text` (pasted, so any character goes in as is) and submits. */
async function enter(events: ReturnType<typeof userEvent.setup>, text: string) {
  await events.click(screen.getByRole('button', { name: TEXT.addExclusion }));
  const dialog = within(await screen.findByTestId('exclusion-dialog'));
  const field = dialog.getByLabelText(TEXT.exclusionLabel);
  await events.clear(field);
  if (text !== '') {
    await events.click(field);
    await events.paste(text);
  }
  await events.click(dialog.getByRole('button', { name: TEXT.addExclusion }));
  return dialog;
}

describe('ExclusionsEditor (002 §5.7)', () => {
  it.each([
    ['UNIX', '', M.empty],
    ['UNIX', '   ', M.empty],
    ['UNIX', '*.tmp', M.duplicate],
    ['UNIX', 'cache/**', M.endsWithDoubleStar],
    ['WINDOWS', '\\Users\\ana', M.startsWithSeparator],
    ['UNIX', 'cache/', M.endsWithSeparator],
    ['WINDOWS', 'Users\\', M.endsWithSeparator],
    ['UNIX', '{a,b}', M.invalidFormat],
    ['UNIX', 'a[1]', M.invalidFormat],
    ['WINDOWS', 'logs/old', M.invalidFormat],
    ['UNIX', 'x'.repeat(EXCLUSION_LIMITS.maxLength + 1), M.invalidExclusion],
    ['UNIX', 'tab\there', M.invalidExclusion],
  ] as const)('%s: %j is refused with its message', async (platform, text, message) => {
    const events = renderEditor(platform);
    const dialog = await enter(events, text);
    expect(dialog.getByText(message)).toBeInTheDocument();
    expect(screen.getAllByTestId('exclusion')).toHaveLength(1);
  });

  it('adds a valid exclusion to the list and removes one', async () => {
    const onChange = vi.fn();
    render(<ExclusionsEditor exclusions={['*.tmp']} platform="UNIX" onChange={onChange} animation={false} />);
    const events = userEvent.setup();
    await enter(events, '/home/ana/cache');
    expect(onChange).toHaveBeenLastCalledWith(['*.tmp', '/home/ana/cache']);
    await events.click(screen.getByRole('button', { name: `${TEXT.removeExclusion} *.tmp` }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it("shows an entry's own message next to it (the server's exclusions.{index})", () => {
    render(
      <ExclusionsEditor
        exclusions={['a', 'b']}
        platform="UNIX"
        onChange={() => undefined}
        entryErrors={[undefined, M.unknownError]}
      />,
    );
    const [first, second] = screen.getAllByTestId('exclusion');
    expect(first).not.toHaveTextContent(M.unknownError);
    expect(second).toHaveTextContent(M.unknownError);
  });
});
