import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BillingServerAddress } from '@portal/domain';
import { ApiRefusal, payInvoice, runAction } from './actions.js';
import {
  invoicePage,
  invoicesPage,
  massPayPage,
  type PageContext,
  productPage,
  signInNeededPage,
  ssoFailedPage,
  ticketsPage,
} from './pages.js';
import { openStateStore, type SimSeed, type SimState } from './state.js';

export interface WhmcsSimulatorOptions {
  /** The state lives in `{dataDir}/whmcs/state.json`. */
  dataDir: string;
  /** 0 (default): any free port. Always bound to loopback. */
  port?: number;
  identifier: string;
  secret: string;
  /** When set, a request that sends another access key is refused. */
  accessKey?: string;
  /** Where the pages' "Back to the portal" link goes. */
  portalUrl?: string;
  /** A fresh installation's products and clients; ignored when the state file exists. */
  seed?: SimSeed;
}

/** Test hooks: make the API slow, answer nonsense, or refuse; never used by the product. */
export interface SimulatorFaults {
  delayMs?: number;
  malformed?: boolean;
  errorMessage?: string;
}

const SSO_TOKEN_TTL_MS = 60_000;
const SESSION_COOKIE = 'WHMCSsim';
const BODY_LIMIT = 64 * 1024;

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * A WHMCS-compatible server for the demo and the tests (DESIGN §2: billing): WHMCS's API actions the
 * portal uses at `includes/api.php`, and the client-area pages people are sent to (invoice with Pay,
 * mass payment, invoices, product details, support tickets, single sign-on). A real HTTP server on
 * loopback; its records persist as JSON under DATA_DIR.
 */
export async function startWhmcsSimulator(options: WhmcsSimulatorOptions) {
  const store = openStateStore(join(options.dataDir, 'whmcs'), options.seed);
  const { state } = store;
  let faults: SimulatorFaults = {};
  const ssoTokens = new Map<string, { clientId: number; path: string; expiresAt: number }>();
  const sessions = new Map<string, number>();
  let base = '';
  const inFlight = new Set<Promise<unknown>>();

  const issueSsoToken = (clientId: number, path: string) => {
    const token = randomBytes(24).toString('hex');
    ssoTokens.set(token, { clientId, path: path.replace(/^\/+/, ''), expiresAt: Date.now() + SSO_TOKEN_TTL_MS });
    return `${base}oauth/singlesignon.php?access_token=${token}`;
  };

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    send(res, status, 'application/json', JSON.stringify(body));

  async function api(req: IncomingMessage, res: ServerResponse) {
    // The faults of the moment the request arrived: a slow request is not changed by faults set while it waits.
    const { delayMs, malformed, errorMessage } = faults;
    const params = new URLSearchParams(await readBody(req));
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (malformed) return send(res, 200, 'text/html', '<html><body>Service temporarily unavailable</body></html>');
    if (errorMessage) return json(res, 200, { result: 'error', message: errorMessage });
    const accessKey = params.get('accesskey');
    if (
      !sameText(params.get('identifier') ?? '', options.identifier) ||
      !sameText(params.get('secret') ?? '', options.secret) ||
      (options.accessKey !== undefined && accessKey !== null && !sameText(accessKey, options.accessKey))
    ) {
      return json(res, 403, { result: 'error', message: 'Authentication Failed' });
    }
    try {
      const { answer, changed } = runAction(state, params, issueSsoToken);
      if (changed) store.save();
      return json(res, 200, { result: 'success', ...answer });
    } catch (error) {
      if (error instanceof ApiRefusal) return json(res, 200, { result: 'error', message: error.message });
      throw error;
    }
  }

  async function page(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const sessionClientId = sessions.get(cookieValue(req, SESSION_COOKIE) ?? '');
    const ctx: PageContext = {
      base: new URL(base).pathname,
      portalUrl: options.portalUrl,
      client: state.clients.find((c) => c.id === sessionClientId),
    };
    const html = (body: string, status = 200) => send(res, status, 'text/html; charset=utf-8', body);
    const redirect = (location: string, headers: Record<string, string> = {}) =>
      send(res, 303, 'text/plain', '', { location, ...headers });
    const ownUnpaid = () => state.invoices.filter((i) => i.userId === ctx.client?.id && i.status === 'Unpaid');

    if (path === 'oauth/singlesignon.php') {
      const token = query.get('access_token') ?? '';
      const grant = ssoTokens.get(token);
      ssoTokens.delete(token);
      if (!grant || grant.expiresAt < Date.now()) return html(ssoFailedPage(ctx), 403);
      const session = randomBytes(24).toString('hex');
      sessions.set(session, grant.clientId);
      return redirect(`${ctx.base}${grant.path}`, {
        'set-cookie': `${SESSION_COOKIE}=${session}; Path=${ctx.base}; HttpOnly; SameSite=Lax`,
      });
    }
    if (path === 'viewinvoice.php') {
      // The simulator has no passwords: an invoice opens by its id, as the portal's purchase links it.
      const invoice = state.invoices.find((i) => i.id === Number(query.get('id')));
      if (req.method === 'POST' && invoice) {
        payInvoice(state, invoice);
        store.save();
        return redirect(`${ctx.base}viewinvoice.php?id=${invoice.id}`);
      }
      return html(invoicePage(ctx, invoice), invoice ? 200 : 404);
    }
    if (path === 'clientarea.php' || path === 'supporttickets.php') {
      if (!ctx.client) return html(signInNeededPage(ctx), 403);
      if (path === 'supporttickets.php') return html(ticketsPage(ctx));
      const action = query.get('action');
      if (action === 'masspay') {
        if (req.method === 'POST') {
          for (const invoice of ownUnpaid()) payInvoice(state, invoice);
          store.save();
          return redirect(`${ctx.base}clientarea.php?action=masspay&all=true`);
        }
        return html(massPayPage(ctx, ownUnpaid()));
      }
      if (action === 'productdetails') return html(productPage(ctx, state, Number(query.get('id'))));
      return html(
        invoicesPage(
          ctx,
          state.invoices.filter((i) => i.userId === ctx.client?.id),
        ),
      );
    }
    return html('<!doctype html><p>Not found</p>', 404);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/+/, '');
    const handled =
      path === 'includes/api.php' && req.method === 'POST' ? api(req, res) : page(req, res, path, url.searchParams);
    inFlight.add(handled);
    void handled.finally(() => inFlight.delete(handled)).catch(() => undefined);
    handled.catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'Internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/`;
  const address: BillingServerAddress = { whmcsHost: '127.0.0.1', whmcsPort: port, whmcsPath: '/' };

  return {
    port,
    address,
    baseUrl: base,
    /** The records as they are now (tests read them; the product never does). */
    state: (): Readonly<SimState> => state,
    setFaults(next: SimulatorFaults) {
      faults = { ...next };
    },
    /**
     * Resolves once no request is being handled: a request its caller gave up on (a timeout) still runs to its end,
     * as in WHMCS, and a test that made one waits for it before counting records.
     */
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WhmcsSimulator = Awaited<ReturnType<typeof startWhmcsSimulator>>;
