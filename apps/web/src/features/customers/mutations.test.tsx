import { TIMINGS } from '@portal/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardKeys } from '../dashboard/queries';
import { useChangeCustomerStatus } from './mutations';
import { customerKeys } from './queries';
import { customerDetail } from './testing';

const fetchMock = vi.fn<typeof fetch>();

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('after a change to a customer (002 §9)', () => {
  it('shows the answered customer at once and refreshes the lists after their delays', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useChangeCustomerStatus('provider'), { wrapper });
    const changed = customerDetail({ id: 7, status: 'SUSPENDED' });
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ status: 'OK', messages: [], responseSummaryCode: 'OK', result: changed })),
    );
    await act(() => result.current.mutateAsync({ customerId: 7, status: 'SUSPENDED' }));
    expect(fetchMock).toHaveBeenCalledWith(
      '/boltadmin/customers/7?status=SUSPENDED',
      expect.objectContaining({ method: 'PUT' }),
    );
    expect(client.getQueryData(customerKeys.detail('provider', 7))).toEqual(changed);

    const refreshed = () => invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    act(() => vi.advanceTimersByTime(TIMINGS.tableRefreshMs));
    expect(refreshed()).toEqual([customerKeys.list('customersToMakeResellers')]);
    act(() => vi.advanceTimersByTime(TIMINGS.customerListRefreshMs - TIMINGS.tableRefreshMs));
    expect(refreshed()).toEqual(
      expect.arrayContaining([
        customerKeys.list('customers'),
        customerKeys.list('resellers'),
        customerKeys.list('myCustomers'),
        dashboardKeys.lists(),
      ]),
    );
    expect(refreshed()).toHaveLength(5);
  });
});
