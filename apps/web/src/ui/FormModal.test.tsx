import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FormModal, type FormModalProps } from './FormModal';

function renderModal(props: Partial<FormModalProps> = {}) {
  const all: FormModalProps = {
    show: true,
    title: 'Edit backup machine',
    children: <input aria-label="Name" />,
    onHide: vi.fn(),
    onSubmit: vi.fn((e) => e.preventDefault()),
    submitting: false,
    submitLabel: 'Save',
    ...props,
  };
  const utils = render(<FormModal {...all} />);
  return {
    ...utils,
    props: all,
    rerenderWith: (next: Partial<FormModalProps>) => utils.rerender(<FormModal {...all} {...next} />),
  };
}

/** The area around the dialog: clicking it is a backdrop click. */
function backdropArea(): HTMLElement {
  return screen.getByRole('dialog');
}

describe('FormModal', () => {
  it('shows a titled dialog with its body, Cancel and the submit button', () => {
    renderModal();
    const dialog = screen.getByRole('dialog', { name: 'Edit backup machine' });
    expect(dialog).toContainElement(screen.getByTestId('form-modal'));
    expect(dialog).toContainElement(screen.getByRole('textbox', { name: 'Name' }));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('type', 'submit');
  });

  it('submits the form from the submit button and from Enter in a field', async () => {
    const user = userEvent.setup();
    const { props } = renderModal();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'x{Enter}');
    expect(props.onSubmit).toHaveBeenCalledTimes(2);
  });

  it('can be dismissed by Cancel, the close icon, Escape and a backdrop click when idle', async () => {
    const user = userEvent.setup();
    const { props } = renderModal();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.keyboard('{Escape}');
    await user.click(backdropArea());
    expect(props.onHide).toHaveBeenCalledTimes(4);
  });

  it('cannot be dismissed while submitting, and shows a spinner on the submit button', async () => {
    const user = userEvent.setup();
    const { props } = renderModal({ submitting: true });
    const submit = screen.getByRole('button', { name: 'Save' });
    expect(submit).toBeDisabled();
    expect(submit).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('form-modal-spinner')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();

    await user.keyboard('{Escape}');
    await user.click(backdropArea());
    expect(props.onHide).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('becomes dismissable again when the submission ends', async () => {
    const user = userEvent.setup();
    const { props, rerenderWith } = renderModal({ submitting: true });
    rerenderWith({ submitting: false });
    expect(screen.queryByTestId('form-modal-spinner')).toBeNull();
    await user.keyboard('{Escape}');
    expect(props.onHide).toHaveBeenCalledTimes(1);
  });

  it('calls onExited once it has closed, so the form can reset', async () => {
    const onExited = vi.fn();
    const { rerenderWith } = renderModal({ onExited });
    expect(onExited).not.toHaveBeenCalled();
    rerenderWith({ onExited, show: false });
    await waitFor(() => expect(onExited).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('can disable the submit button without submitting', () => {
    renderModal({ submitDisabled: true });
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });
});
