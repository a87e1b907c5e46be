import { SERVICE_RESTART_CLOSE } from '@portal/domain';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLiveChannelClient } from './live';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A WebSocket to a STOMP server that answers CONNECT at once and each SUBSCRIBE's receipt when told. */
class StompServerSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static opened: StompServerSocket[] = [];
  readyState = StompServerSocket.CONNECTING;
  protocol = 'v12.stomp';
  binaryType = 'arraybuffer';
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: (() => void) | null = null;
  /** The receipt headers of the SUBSCRIBE frames received. */
  receipts: string[] = [];

  constructor() {
    StompServerSocket.opened.push(this);
    setTimeout(() => {
      this.readyState = StompServerSocket.OPEN;
      this.onopen?.();
    });
  }

  send(data: string) {
    if (data.startsWith('CONNECT')) this.onmessage?.({ data: 'CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0' });
    const receipt = /^SUBSCRIBE\n[\s\S]*?^receipt:(.*)$/m.exec(data)?.[1];
    if (receipt) this.receipts.push(receipt);
  }

  receipt(id: string) {
    this.onmessage?.({ data: `RECEIPT\nreceipt-id:${id}\n\n\0` });
  }

  close() {
    this.drop(1000);
  }

  /** The server ends the connection with a close code. */
  drop(code: number) {
    this.readyState = StompServerSocket.CLOSED;
    this.onclose?.({ code, reason: '', wasClean: true });
  }
}

describe('createLiveChannelClient', () => {
  it('tells a subscriber when the server has confirmed its subscription, and one who joins it later at once', async () => {
    vi.stubGlobal('WebSocket', StompServerSocket);
    const client = createLiveChannelClient('provider', { protocol: 'http:', host: 'portal.test' });
    const destination = '/ws/queue/boltadmin/backupmachines/9';
    const first = vi.fn();
    client.subscribe(destination, () => undefined, { onSubscribed: first });
    await waitFor(() => expect(StompServerSocket.opened.at(-1)?.receipts).toHaveLength(1));
    const socket = StompServerSocket.opened.at(-1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first).not.toHaveBeenCalled();

    socket?.receipt(socket.receipts[0] ?? '');
    await waitFor(() => expect(first).toHaveBeenCalledTimes(1));
    const second = vi.fn();
    client.subscribe(destination, () => undefined, { onSubscribed: second });
    await waitFor(() => expect(second).toHaveBeenCalledTimes(1));
    expect(first).toHaveBeenCalledTimes(1);
    expect(socket?.receipts).toHaveLength(1);
    client.close();
  });

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

  it('reconnects within the restart jitter after a service restart close (1012), and after 5 s after another drop', async () => {
    vi.stubGlobal('WebSocket', StompServerSocket);
    // The longest wait the jitter can give.
    vi.spyOn(Math, 'random').mockReturnValue(0.9999);
    const sockets = StompServerSocket.opened.length + 1;
    const client = createLiveChannelClient('provider', { protocol: 'http:', host: 'portal.test' });
    const listener = vi.fn();
    client.subscribe('/ws/queue/boltadmin/backupmachines/9', listener);
    await waitFor(() => expect(StompServerSocket.opened[sockets - 1]?.receipts).toHaveLength(1));
    vi.useFakeTimers();

    StompServerSocket.opened.at(-1)?.drop(SERVICE_RESTART_CLOSE.code);
    await vi.advanceTimersByTimeAsync(SERVICE_RESTART_CLOSE.jitterMs);
    expect(StompServerSocket.opened).toHaveLength(sockets + 1);
    await vi.advanceTimersByTimeAsync(10);
    expect(StompServerSocket.opened.at(-1)?.receipts).toHaveLength(1);
    expect(listener).toHaveBeenCalledWith(null);

    // A drop that is no planned restart keeps the failure wait.
    StompServerSocket.opened.at(-1)?.drop(1006);
    await vi.advanceTimersByTimeAsync(4_900);
    expect(StompServerSocket.opened).toHaveLength(sockets + 1);
    await vi.advanceTimersByTimeAsync(200);
    expect(StompServerSocket.opened).toHaveLength(sockets + 2);
    client.close();
  });
});
