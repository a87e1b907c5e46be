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

export interface ReasonButtonProps extends Omit<ButtonProps, 'children' | 'disabled'> {
  /** Why the action is unavailable (the server's text), or null when it is available. */
  reason: string | null;
  children: ReactNode;
}

/**
 * An action the server may have ruled out (issue 29): enabled when it gives no reason, else disabled with the
 * reason as its tooltip, so the user learns why before filling any form.
 */
export function ReasonButton({ reason, children, ...buttonProps }: ReasonButtonProps) {
  if (reason === null) return <Button {...buttonProps}>{children}</Button>;
  const { onClick: _ignored, ...rest } = buttonProps;
  return (
    <TooltipButton {...rest} tooltip={reason} disabled>
      {children}
    </TooltipButton>
  );
}
