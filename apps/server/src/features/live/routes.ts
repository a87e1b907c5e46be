import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fastifyWebsocket from '@fastify/websocket';
import { errorMessage, failure, MESSAGES, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  app.addHook('preClose', async () => {
    // From the first moment of closing, an upgrade is answered as a plain request: Fastify's own 503 for requests
    // that arrive while it closes, after which the HTTP server closes the connection. Routed through the WebSocket
    // plugin instead (until its own preClose), that 503 is written on a socket the HTTP server no longer watches and
    // nothing ends it; the agent closes its side and the socket stays half-open, so server.close() never completed
    // under a reconnecting fleet (issue 33, the restart storm).
    app.server.removeAllListeners('upgrade');
    // Closing our connections first lets their presence writes finish while the database is still open.
    await channel.close();
  });
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

  /**
   * Agents are admitted a bounded number at a time (LiveChannelOptions.maxAgentHandshakes); the rest are answered
   * 503 before the upgrade, which costs no database and little CPU, and come back after their back-off. A place is
   * also given back when the socket closes, whatever happened to the upgrade in between.
   */
  const admitted = new WeakMap<FastifyRequest['raw'], () => void>();
  const admitAgent = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.ws) return;
    const place = channel.admitAgent();
    if (!place) {
      reply.header('Retry-After', String(channel.options.agentRetryAfterSeconds));
      return reply.code(503).send(failure('SERVICE_UNAVAILABLE', [errorMessage(MESSAGES.serviceUnavailable)]));
    }
    const socket = request.raw.socket;
    const release = () => {
      socket.off('close', release);
      place();
    };
    socket.once('close', release);
    admitted.set(request.raw, release);
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
  app.get(agent.path, { websocket: true, ...accessOf(agent), preHandler: admitAgent }, (socket, request) =>
    acceptReleasing(socket, request, () => channel.acceptAgent(socket, admitted.get(request.raw) ?? (() => {}))),
  );
}
