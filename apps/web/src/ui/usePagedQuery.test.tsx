import { type Envelope, type Paged, ROUTES } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeCall } from '../app/api';
import { type PagedQueryParams, pagedQueryString, usePagedQuery, useTableState, withQuery } from './usePagedQuery';

/** Any paged call of the route table; the tests answer it themselves. */
const machines = routeCall(ROUTES.dashboard.ownMachines, {});

interface Row {
  id: number;
}

function envelope(elements: Row[], totalElements: number): Envelope<Paged<Row>> {
  return {
    status: 'OK',
    messages: [],
    responseSummaryCode: 'OK',
    result: { elements, totalElements, totalPages: Math.ceil(totalElements / 2) },
  };
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

function requestedUrl(call: number): string {
  return String(fetchMock.mock.calls[call]?.[0]);
}

describe('pagedQueryString', () => {
  it('sends page, size, sort as key,direction and the filters that are set', () => {
    const query = pagedQueryString({
      page: 2,
      size: 12,
      sort: { key: 'name', direction: 'desc' },
      filters: {
        status: 'ACTIVE',
        empty: '',
        none: undefined,
        nothing: null,
        types: ['ERROR', 'WARNING'],
        flag: false,
      },
    });
    expect(query).toBe('page=2&size=12&sort=name%2Cdesc&status=ACTIVE&types=ERROR&types=WARNING&flag=false');
    expect(new URLSearchParams(query).get('sort')).toBe('name,desc');
  });

  it('appends to a path that already has a query', () => {
    expect(withQuery('/a?x=1', 'page=0')).toBe('/a?x=1&page=0');
    expect(withQuery('/a', 'page=0')).toBe('/a?page=0');
  });
});

describe('usePagedQuery', () => {
  it('fetches the paged endpoint and exposes its rows and total', async () => {
    fetchMock.mockResolvedValue(jsonResponse(envelope([{ id: 1 }, { id: 2 }], 5)));
    const { result } = renderHook(
      () =>
        usePagedQuery(['machines'], machines, {
          page: 1,
          size: 2,
          sort: { key: 'name', direction: 'asc' },
        }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(result.current.rows).toEqual([{ id: 1 }, { id: 2 }]));
    expect(result.current.totalElements).toBe(5);
    expect(result.current.totalPages).toBe(3);
    expect(requestedUrl(0)).toBe('/dashboard/machines?page=1&size=2&sort=name%2Casc');
  });

  it('keeps showing the previous page while the next one loads', async () => {
    let answerPage1: (r: Response) => void = () => {};
    fetchMock
      .mockResolvedValueOnce(jsonResponse(envelope([{ id: 1 }], 3)))
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answerPage1 = resolve)));
    const { result, rerender } = renderHook(
      ({ params }: { params: PagedQueryParams }) => usePagedQuery(['rows'], machines, params),
      { wrapper: wrapper(), initialProps: { params: { page: 0, size: 2 } } },
    );
    await waitFor(() => expect(result.current.rows).toEqual([{ id: 1 }]));

    rerender({ params: { page: 1, size: 2 } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(result.current.rows).toEqual([{ id: 1 }]);
    expect(result.current.loading).toBe(true);

    act(() => answerPage1(jsonResponse(envelope([{ id: 3 }], 3))));
    await waitFor(() => expect(result.current.rows).toEqual([{ id: 3 }]));
    expect(result.current.loading).toBe(false);
  });

  it('shows an empty list when the server answers with an error', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ status: 'ERROR', messages: [], responseSummaryCode: 'FORBIDDEN', result: null }, 403),
    );
    const { result } = renderHook(() => usePagedQuery(['rows'], machines, { page: 0, size: 2 }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(result.current.rows).toEqual([]);
    expect(result.current.totalElements).toBe(0);
  });

  it('empties the list when a refresh fails after a successful load', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(envelope([{ id: 1 }], 1)))
      .mockRejectedValueOnce(new TypeError('offline'));
    const { result } = renderHook(() => usePagedQuery(['rows'], machines, { page: 0, size: 2 }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.rows).toHaveLength(1));
    act(() => result.current.refetch());
    await waitFor(() => expect(result.current.failed).toBe(true));
    expect(result.current.rows).toEqual([]);
  });
});

describe('useTableState', () => {
  it('goes back to the first page when the filter or the sort changes', () => {
    const { result } = renderHook(() =>
      useTableState<{ status?: string }>({ size: 12, sort: { key: 'name', direction: 'asc' } }),
    );
    expect(result.current.params).toEqual({ page: 0, size: 12, sort: { key: 'name', direction: 'asc' }, filters: {} });

    act(() => result.current.setPage(3));
    expect(result.current.page).toBe(3);
    act(() => result.current.setFilters({ status: 'FAILED' }));
    expect(result.current.page).toBe(0);
    expect(result.current.params.filters).toEqual({ status: 'FAILED' });

    act(() => result.current.setPage(2));
    act(() => result.current.setSort({ key: 'os', direction: 'desc' }));
    expect(result.current.page).toBe(0);
    expect(result.current.sort).toEqual({ key: 'os', direction: 'desc' });

    act(() => result.current.setPage(1));
    act(() => result.current.setFilters((previous) => ({ ...previous, status: undefined })));
    expect(result.current.page).toBe(0);
    expect(result.current.filters).toEqual({ status: undefined });
  });

  it('resets to the initial filters', () => {
    const { result } = renderHook(() => useTableState({ size: 5, page: 1, filters: { managed: true } }));
    expect(result.current.page).toBe(1);
    act(() => result.current.setFilters({ managed: false }));
    act(() => result.current.setPage(4));
    act(() => result.current.resetFilters());
    expect(result.current.filters).toEqual({ managed: true });
    expect(result.current.page).toBe(0);
  });

  it('keeps params stable between renders when nothing changed', () => {
    const { result, rerender } = renderHook(() => useTableState({ size: 5 }));
    const first = result.current.params;
    rerender();
    expect(result.current.params).toBe(first);
  });
});
