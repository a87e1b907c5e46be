import { useSyncExternalStore } from 'react';

type Toastify = typeof import('react-toastify')['toast'];

let toastify: Promise<Toastify> | undefined;
const raisedListeners = new Set<() => void>();

/**
 * react-toastify, loaded with the first toast: no page shows one when it opens, and loading it (its code, the
 * stylesheet it injects and the restyle that follows) cost a phone's CPU during the page load (issue 31, phones).
 * A toast raised before the host has mounted waits in react-toastify's own queue.
 */
function withToastify(use: (library: Toastify) => void): void {
  if (!toastify) {
    toastify = import('react-toastify').then((library) => library.toast);
    for (const listener of raisedListeners) listener();
  }
  void toastify.then(use);
}

/**
 * The one way screens raise toasts, so their look and timing stay in one place (<ToastHost/>). Every
 * call site uses this facade rather than react-toastify itself.
 */
export const toast = {
  success: (text: string): void => withToastify((library) => library.success(text)),
  warning: (text: string): void => withToastify((library) => library.warning(text)),
  error: (text: string): void => withToastify((library) => library.error(text)),
  info: (text: string): void => withToastify((library) => library.info(text)),
  dismiss: (): void => void toastify?.then((library) => library.dismiss()),
};

const onFirstToast = (listener: () => void) => {
  raisedListeners.add(listener);
  return () => raisedListeners.delete(listener);
};

/** Whether a toast has been raised on this page: the app mounts the toast host then (main.tsx). */
export const useToastRaised = (): boolean => useSyncExternalStore(onFirstToast, () => toastify !== undefined);
