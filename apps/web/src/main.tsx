import 'bootstrap/dist/css/bootstrap.min.css';
import './app/app.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/AppRoutes';
import { LiveChannelProvider } from './app/live';
import { SessionProvider } from './app/session';
import { ToastHost } from './ui';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <LiveChannelProvider>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </LiveChannelProvider>
          <ToastHost />
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
