import 'bootstrap/dist/css/bootstrap.min.css';
import './app/app.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/AppRoutes';
import { LiveChannelProvider } from './app/live';
import { SessionProvider } from './app/session';
import { useToastRaised } from './ui';

// No page shows a toast when it opens: the host and react-toastify load with the first toast (ui/toast.ts), so they
// stay off the page load's scripts (issue 31, phones).
const ToastHost = lazy(() => import('./ui/ToastHost').then((m) => ({ default: m.ToastHost })));

function ToastHostOnFirstToast() {
  return useToastRaised() ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
});

const root = document.getElementById('root');
if (root) {
  const app = createRoot(root);
  // The first render as a transition, which React renders in slices of a few milliseconds with the browser's work
  // between them: on a phone's CPU the shell's first render was one task of 80 ms and more (issue 31, phones).
  startTransition(() =>
    app.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>
            <LiveChannelProvider>
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </LiveChannelProvider>
            <ToastHostOnFirstToast />
          </SessionProvider>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}
