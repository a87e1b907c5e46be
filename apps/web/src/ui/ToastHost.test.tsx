import { TIMINGS } from '@portal/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from './ToastHost';
import { toast } from './toast';

afterEach(() => {
  act(() => toast.dismiss());
  vi.restoreAllMocks();
});

describe('ToastHost and toast', () => {
  it('shows each kind of toast with its own style', async () => {
    render(<ToastHost />);
    act(() => {
      toast.success('Backup machine edited successfully!');
      toast.warning('Backup machine updated but some errors occurred.');
      toast.error('Error in communicating with server.');
      toast.info('Command submitted successfully.');
    });
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(4);
    const kindOf = (text: string) => screen.getByText(text).closest('.Toastify__toast')?.className ?? '';
    expect(kindOf('Backup machine edited successfully!')).toContain('Toastify__toast--success');
    expect(kindOf('Backup machine updated but some errors occurred.')).toContain('Toastify__toast--warning');
    expect(kindOf('Error in communicating with server.')).toContain('Toastify__toast--error');
    expect(kindOf('Command submitted successfully.')).toContain('Toastify__toast--info');
  });

  it('places toasts top right', async () => {
    render(<ToastHost />);
    act(() => {
      toast.success('Saved');
    });
    const text = await screen.findByText('Saved');
    expect(text.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--top-right');
  });

  it('times out after 2000 ms with the timer bar hidden, paused while hovered', async () => {
    // jsdom's document never has focus, and toasts also pause while the window is not focused.
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    render(<ToastHost />);
    act(() => {
      toast.success('Settings saved!');
    });
    const text = await screen.findByText('Settings saved!');
    const toastElement = text.closest('.Toastify__toast') as HTMLElement;
    // The timer starts once the entrance animation has ended; jsdom does not animate.
    fireEvent.animationEnd(toastElement);
    // react-toastify drives auto-close with the (hidden) timer bar's CSS animation.
    const timer = screen.getByRole('progressbar', { hidden: true });
    expect(timer).toHaveAttribute('aria-hidden', 'true');
    expect(timer.style.animationDuration).toBe(`${TIMINGS.toastMs}ms`);
    expect(timer.closest('.Toastify__progress-bar--wrp')).toHaveAttribute('data-hidden', 'true');
    expect(timer.style.animationPlayState).toBe('running');

    fireEvent.mouseEnter(toastElement);
    expect(timer.style.animationPlayState).toBe('paused');
    fireEvent.mouseLeave(toastElement);
    expect(timer.style.animationPlayState).toBe('running');

    // The end of the timer animation closes the toast.
    // (React listens for the prefixed name in jsdom, which has no AnimationEvent.)
    fireEvent(timer, new Event('webkitAnimationEnd', { bubbles: true }));
    await waitFor(() => expect(toastElement.className).toContain('-exit'));
    fireEvent.animationEnd(toastElement); // ...after its exit animation
    await waitFor(() => expect(screen.queryByText('Settings saved!')).toBeNull(), { timeout: 3000 });
  });
});
