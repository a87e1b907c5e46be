/** What every dialog takes from the page that opens it. */
export interface DialogProps {
  show: boolean;
  /** Cancel, close, or done. */
  onHide: () => void;
  /** Turned off in tests that do not want to wait for the fade. */
  animation?: boolean;
}
