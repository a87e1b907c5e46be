import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyDialog } from './lazyDialog';

function Shown({ show, text }: { show: boolean; text: string }) {
  return show ? <p>{text}</p> : <p>closed</p>;
}

describe('lazyDialog', () => {
  it('loads its dialog when it first opens, once, and keeps it mounted after it closes', async () => {
    const load = vi.fn(async () => Shown);
    const Dialog = lazyDialog(load);
    const { rerender } = render(<Dialog show={false} text="Log" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByText('closed')).not.toBeInTheDocument();
    rerender(<Dialog show text="Log" />);
    expect(await screen.findByText('Log')).toBeInTheDocument();
    rerender(<Dialog show={false} text="Log" />);
    expect(screen.getByText('closed')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opens by what its props say, and preloads on the pointer or focus of its control', async () => {
    const load = vi.fn(async () => ({ file }: { file: string | null }) => <p>{file}</p>);
    const Dialog = lazyDialog(load, (props) => props.file !== null);
    render(
      <>
        <button type="button" {...Dialog.preloadProps}>
          History
        </button>
        <Dialog file={null} />
      </>,
    );
    fireEvent.focus(screen.getByRole('button', { name: 'History' }));
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'History' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('a.txt')).not.toBeInTheDocument();
    render(<Dialog file="a.txt" />);
    expect(await screen.findByText('a.txt')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
