import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fastifyWebsocket from '@fastify/websocket';
import { ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { forbidden } from '../../http/errors.js';
import { SESSION_COOKIE } from '../../http/request-context.js';
import { accessOf } from '../../http/route.js';
import type { LiveChannel } from './channel.js';

const STOMP_PROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/**
 * A browser's WebSocket must come from the portal's own pages: the Origin must be PUBLIC_URL's origin
 * or the origin of the Host the request was made to. Cookies ride along with cross-site WebSocket
 * requests, so without this any site could open the channel as the signed-in user.
 */
export function originAllowed(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  const allowed = new Set<string>([`${request.protocol}://${request.host}`.toLowerCase()]);
  if (publicUrl) allowed.add(new URL(publicUrl).origin.toLowerCase());
  return allowed.has(origin.toLowerCase());
}

/**
 * @fastify/websocket keeps the upgrade's request and reply alive for as long as the socket lives: its
 * 'error' listener closes over both, and the TCP socket still points at the ServerResponse made for
 * routing (about 3.5 KB of heap per connection, most of what an idle agent costs). Once the channel has
 * taken the socket (with an error listener of its own), the upgrade's listener goes and the response is
 * let go.
 */
function acceptReleasing(socket: WebSocket, request: FastifyRequest, accept: () => void): void {
  const upgradeListeners = socket.listeners('error') as Array<(error: Error) => void>;
  accept();
  for (const listener of upgradeListeners) socket.off('error', listener);
  const raw = request.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
  raw._httpMessage?.detachSocket(raw);
}

/**
 * The three endpoints (DESIGN §5). Browsers are authenticated at the upgrade exactly as HTTP requests
 * are (session cookie, the route's access level, plus the Origin check); agents at STOMP CONNECT.
 */
export async function registerLiveRoutes(
  app: FastifyInstance,
  deps: { channel: LiveChannel; publicUrl: string | undefined },
): Promise<void> {
  const { channel } = deps;
  // Closing our connections first lets their presence writes finish while the database is still open.
  app.addHook('preClose', async () => channel.close());
  await app.register(fastifyWebsocket, {
    options: {
      // A frame over the STOMP limit is answered with an ERROR frame by the codec; ws itself drops
      // only messages far beyond it.
      maxPayload: channel.options.maxFrameBytes * 4,
      handleProtocols: (offered: Set<string>) => STOMP_PROTOCOLS.find((p) => offered.has(p)) ?? false,
    },
  });

  const checkOrigin = async (request: FastifyRequest) => {
    if (request.ws && !originAllowed(request, deps.publicUrl)) throw forbidden();
  };

  const { customer, provider, agent } = ROUTES.live;
  app.get(customer.path, { websocket: true, ...accessOf(customer), preHandler: checkOrigin }, (socket, request) =>
    acceptReleasing(socket, request, () =>
      channel.acceptBrowser(socket, 'customer', request.cookies[SESSION_COOKIE] ?? '', request.ip),
    ),
  );
  app.get(provider.path, { websocket: true, ...accessOf(provider), preHandler: checkOrigin }, (socket, request) =>
    acceptReleasing(socket, request, () =>
      channel.acceptBrowser(socket, 'provider', request.cookies[SESSION_COOKIE] ?? '', request.ip),
    ),
  );
  app.get(agent.path, { websocket: true, ...accessOf(agent) }, (socket, request) =>
    acceptReleasing(socket, request, () => channel.acceptAgent(socket)),
  );
}
