import { Redis } from 'ioredis';

/**
 * Connects to REDIS_URL and checks it answers; the live channel's bus shares this connection factory.
 * While Redis is down ioredis reconnects by itself (every 2 s at most); commands fail at once instead of
 * waiting in an offline queue, so an outage costs no memory (the bus then serves this instance's own
 * connections only). `onStateChange` hears when the connection is lost and when it is back.
 */
export async function openRedis(
  url: string,
  onStateChange: (up: boolean, error?: Error) => void = () => {},
): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    enableOfflineQueue: false,
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`REDIS_URL: cannot reach Redis (${error instanceof Error ? error.message : String(error)})`);
  }
  // One report per outage: ioredis repeats the error on every reconnect attempt.
  let up = true;
  client.on('error', (error: Error) => {
    if (!up) return;
    up = false;
    onStateChange(false, error);
  });
  client.on('close', () => {
    if (!up) return;
    up = false;
    onStateChange(false);
  });
  client.on('ready', () => {
    if (up) return;
    up = true;
    onStateChange(true);
  });
  return client;
}
