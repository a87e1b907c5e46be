import { describe, expect, it } from 'vitest';
import { createSessionCache, createSessionChanges, type SessionWithUser } from './session-cache.js';

const found = (sessionId: string, userId: number, customerId: number | null) =>
  ({ session: { id: sessionId, lastSeenAt: new Date(0) }, user: { id: userId, customerId } }) as SessionWithUser;

/** A load that counts its calls. */
function loader(value: SessionWithUser | null) {
  const load = async () => {
    load.calls++;
    return value;
  };
  load.calls = 0;
  return load;
}

describe('the session cache', () => {
  it('reads a session once within its time, again after it', async () => {
    let now = 0;
    const cache = createSessionCache({ ttlMs: 1_000, now: () => now });
    const load = loader(found('s1', 1, 10));
    await cache.read('s1', load);
    await cache.read('s1', load);
    expect(load.calls).toBe(1);
    now = 1_000;
    await cache.read('s1', load);
    expect(load.calls).toBe(2);
  });

  it('remembers no unknown session, and nothing at all with time 0', async () => {
    const cache = createSessionCache({ ttlMs: 1_000 });
    const none = loader(null);
    await cache.read('gone', none);
    await cache.read('gone', none);
    expect(none.calls).toBe(2);
    const off = createSessionCache({ ttlMs: 0 });
    const load = loader(found('s1', 1, 10));
    await off.read('s1', load);
    await off.read('s1', load);
    expect(load.calls).toBe(2);
  });

  it('drops by session, by user and by customer', async () => {
    const cache = createSessionCache({ ttlMs: 60_000 });
    const rows = [found('s1', 1, 10), found('s2', 1, 10), found('s3', 2, 10), found('s4', 3, 20), found('s5', 4, null)];
    const fill = () => Promise.all(rows.map((row) => cache.read(row.session.id, async () => row)));
    await fill();
    cache.drop({ sessionId: 's1' });
    expect(cache.size).toBe(4);
    cache.drop({ userId: 1 });
    expect(cache.size).toBe(3);
    cache.drop({ customerId: 10 });
    expect(cache.size).toBe(2);
    await fill();
    cache.drop({ customerId: 20 });
    expect(cache.size).toBe(4);
  });

  it('does not remember what a read found while a change came in (it may be from before the change)', async () => {
    const cache = createSessionCache({ ttlMs: 60_000 });
    let release: (row: SessionWithUser) => void = () => {};
    const slow = cache.read('s1', () => new Promise<SessionWithUser>((resolve) => (release = resolve)));
    cache.drop({ userId: 1 });
    release(found('s1', 1, 10));
    expect((await slow)?.session.id).toBe('s1');
    expect(cache.size).toBe(0);
  });

  it('keeps at most its size, the oldest going first', async () => {
    const cache = createSessionCache({ ttlMs: 60_000, maxEntries: 2 });
    for (const id of ['s1', 's2', 's3']) await cache.read(id, async () => found(id, 1, 10));
    expect(cache.size).toBe(2);
    const load = loader(found('s1', 1, 10));
    await cache.read('s1', load);
    expect(load.calls).toBe(1);
  });

  it('carries a touched session its new last-seen time', async () => {
    const cache = createSessionCache({ ttlMs: 60_000 });
    await cache.read('s1', async () => found('s1', 1, 10));
    cache.touched('s1', new Date(5_000));
    expect((await cache.read('s1', loader(null)))?.session.lastSeenAt).toEqual(new Date(5_000));
  });
});

describe('session changes', () => {
  it('drop here at once and go to the other instances once connected', async () => {
    const changes = createSessionChanges({ ttlMs: 60_000 });
    await changes.cache.read('s1', async () => found('s1', 1, 10));
    const sent: unknown[] = [];
    await changes.changed({ sessionId: 's1' });
    expect(changes.cache.size).toBe(0);
    changes.connect({ publish: async (change) => void sent.push(change), arriving: () => true });
    await changes.changed({ userId: 1 });
    expect(sent).toEqual([{ userId: 1 }]);
  });

  it('remember nothing while the other instances cannot be heard (Redis down)', async () => {
    const changes = createSessionChanges({ ttlMs: 60_000 });
    let up = true;
    changes.connect({ publish: async () => {}, arriving: () => up });
    await changes.cache.read('s1', async () => found('s1', 1, 10));
    expect(changes.cache.size).toBe(1);
    up = false;
    const load = loader(found('s1', 1, 10));
    await changes.cache.read('s1', load);
    await changes.cache.read('s1', load);
    expect(load.calls).toBe(2);
    expect(changes.cache.size).toBe(0);
  });
});
