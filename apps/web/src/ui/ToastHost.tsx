import { TIMINGS } from '@portal/domain';
import { ToastContainer } from 'react-toastify';

/**
 * Where toasts appear: top right, 2000 ms, no progress bar, paused while hovered (000 §9, 001 §9).
 * react-toastify 11 injects its own stylesheet when the container mounts, so there is no CSS import
 * here (importing ReactToastify.css as well would load the same rules twice).
 */
export function ToastHost() {
  return <ToastContainer position="top-right" autoClose={TIMINGS.toastMs} hideProgressBar pauseOnHover />;
}
