import { type ReactNode, useId } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';

export interface TooltipButtonProps extends Omit<ButtonProps, 'children'> {
  /** Shown on hover and focus, also while the button is disabled (e.g. why it is). */
  tooltip: ReactNode;
  children: ReactNode;
}

/**
 * A button with a tooltip that still shows when the button is disabled (002 §5.2 'No packages to link
 * to', §6 the delete and unlink tooltips): a disabled button gets no pointer events, so the tooltip
 * hangs on a focusable wrapper around it.
 */
export function TooltipButton({ tooltip, disabled, children, style, ...buttonProps }: TooltipButtonProps) {
  const tooltipId = useId();
  return (
    <OverlayTrigger placement="top" overlay={<Tooltip id={tooltipId}>{tooltip}</Tooltip>}>
      <span className="d-inline-block" tabIndex={disabled ? 0 : undefined} data-testid="tooltip-button">
        <Button {...buttonProps} disabled={disabled} style={disabled ? { ...style, pointerEvents: 'none' } : style}>
          {children}
        </Button>
      </span>
    </OverlayTrigger>
  );
}
