import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createLiveChannelClient } from './live';

describe('createLiveChannelClient', () => {
  it('tells a subscriber when the connection cannot be made, and stops telling it once unsubscribed', async () => {
    // Port 1 on loopback: nothing listens, so the WebSocket fails at once.
    const client = createLiveChannelClient('provider', { protocol: 'http:', host: '127.0.0.1:1' });
    const onFailure = vi.fn();
    const listener = vi.fn();
    const unsubscribe = client.subscribe('/ws/queue/boltadmin/backupmachines/9', listener, { onFailure });
    await waitFor(() => expect(onFailure).toHaveBeenCalled(), { timeout: 5_000 });
    unsubscribe();
    const calls = onFailure.mock.calls.length;
    client.close();
    expect(onFailure).toHaveBeenCalledTimes(calls);
    expect(listener).not.toHaveBeenCalled();
  });
});
