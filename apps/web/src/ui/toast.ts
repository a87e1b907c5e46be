import { type Id, toast as toastify } from 'react-toastify';

/**
 * The one way screens raise toasts, so their look and timing stay in one place (<ToastHost/>). Every
 * call site uses this facade rather than react-toastify itself.
 */
export const toast = {
  success: (text: string): Id => toastify.success(text),
  warning: (text: string): Id => toastify.warning(text),
  error: (text: string): Id => toastify.error(text),
  info: (text: string): Id => toastify.info(text),
  dismiss: (): void => toastify.dismiss(),
};
