import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  brandFaviconUrl,
  brandLogoUrl,
  brandNameOf,
  CSRF_FIELD_NAME,
  CSRF_HEADER_NAME,
  EARLY_READS,
  EARLY_READS_ELEMENT_ID,
  type InitialData,
  isAdminAreaPath,
  isProviderAdmin,
  matchPage,
  mayOpenPage,
  PAGES,
  type PageKey,
  PUBLIC_PAGES,
  ROUTE_CHUNKS_FILE,
  ROUTES,
  type RouteChunks,
} from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ShellService } from '../features/shell/service.js';
import { isStaticAsset } from '../http/request-context.js';
import { route } from '../http/route.js';

const FALLBACK_INDEX =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="/img/favicon.png"><title>Cloud Portal</title></head><body><div id="root"></div></body></html>';

/** JSON inside a script element: '<' is escaped so no value can close the element. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page's own title and icon, the brand's before any script runs (the app keeps them so), and its logo asked for
 * with the scripts: every page's header shows it, and on a phone's network it was the dashboard's largest paint,
 * requested only once the scripts had run (issue 31, phones).
 */
function brandHead(html: string, branding: InitialData['branding']): string {
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${attr(brandNameOf(branding))}</title>`)
    .replace(/<link rel="icon" href="[^"]*"/, () => `<link rel="icon" href="${attr(brandFaviconUrl(branding))}"`)
    .replace('<title>', () => `${logoPreload(branding)}<title>`);
}

/** Before the scripts and at high priority: on a phone's network it otherwise waited behind them. */
function logoPreload(branding: InitialData['branding']): string {
  return `<link rel="preload" as="image" fetchpriority="high" href="${attr(brandLogoUrl(branding))}">`;
}

/**
 * The page's own code as module preloads (the build's ROUTE_CHUNKS_FILE, apps/web/route-chunks.ts): the task page's
 * and the dashboard's chunks load beside the entry script instead of after it has run (issue 31, phones). At low
 * priority: the shell's first paint needs the entry and the style sheet only, and at the entry's own priority the
 * page's chunks shared the phone's bandwidth with them, so the entry finished last and ran only once everything had
 * arrived; after them, the page's chunks arrive while the entry runs.
 */
function readRouteChunks(distDir: string | undefined): RouteChunks {
  const file = distDir && join(distDir, ROUTE_CHUNKS_FILE);
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RouteChunks) : {};
}
const routePreloads = (chunks: RouteChunks, page: PageKey | null) =>
  ((page && chunks[page]) || [])
    .map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${attr(file)}">`)
    .join('');

/** The paths of the page's first reads (EARLY_READS), which the build's early-reads script starts; signed in only. */
function earlyReads(path: string, page: PageKey | null, signedIn: boolean): string {
  const reads = signedIn && page ? EARLY_READS[page] : undefined;
  if (!reads) return '';
  const paths = reads.map((below) => `${path}${below}`);
  return `<script type="application/json" id="${EARLY_READS_ELEMENT_ID}">${scriptSafeJson(paths)}</script>`;
}

const isNavigation = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');

export interface SpaOptions {
  distDir: string | undefined;
  version: string;
  commitId: string;
  demo: boolean;
  shell: ShellService;
  providerSiteUrl: string | null;
  /** The signed-in customer's unpaid invoice count, refreshed from billing now and then (002 §2.2). */
  unpaidInvoices?: (customerId: number, stored: number) => Promise<number>;
}

/**
 * Where two-factor sign-in (issue 18) sends a navigation, if anywhere: a half-signed-in session to the
 * second step from every page that is not public; a user who must enrol to the enrolment page from every
 * other page that is not public; the second step's page to sign-in without a half-signed-in session.
 */
function mfaRedirect(request: FastifyRequest, page: PageKey | null): string | null {
  if (page === 'loginMfa') return request.mfaPending ? null : request.signedIn ? PAGES.dashboard : PAGES.login;
  const isPublic = page !== null && PUBLIC_PAGES.includes(page);
  if (request.mfaPending && !isPublic) return PAGES.loginMfa;
  if (request.signedIn?.mfaEnrolmentRequired && !isPublic && page !== 'mfaEnrol') return PAGES.mfaEnrol;
  return null;
}

/**
 * Serves the built web app: assets as files, and for every browser navigation the index.html with
 * the CSRF token and initial data in it; unknown addresses get the same page with status 404 so the
 * app shows its not-found page.
 */
export async function registerSpa(app: FastifyInstance, options: SpaOptions): Promise<void> {
  const distDir = options.distDir && existsSync(join(options.distDir, 'index.html')) ? options.distDir : undefined;
  if (!distDir) app.log.warn('web app not built: pages are served without scripts (run npm run build)');
  const template = distDir ? readFileSync(join(distDir, 'index.html'), 'utf8') : FALLBACK_INDEX;
  const routeChunks = readRouteChunks(distDir);

  if (distDir) {
    // The build writes each script and style sheet also as .br and .gz (apps/web/vite.config.ts): the file of
    // the best encoding the request accepts is sent (brotli, then gzip, else the file itself) with its own
    // Content-Type, Content-Encoding and ETag; nothing is compressed per request (compress: false).
    await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true });
    const builtFile = { compress: false } as const;
    route(
      app,
      ROUTES.web.assets,
      async (request, reply) => {
        const file = (request.params as { '*': string })['*'];
        return reply
          .header('Vary', 'Accept-Encoding')
          .sendFile(join('assets', file), { maxAge: '365d', immutable: true });
      },
      builtFile,
    );
    route(
      app,
      ROUTES.web.images,
      async (request, reply) => {
        const file = (request.params as { '*': string })['*'];
        return reply.header('Vary', 'Accept-Encoding').sendFile(join('img', file), { maxAge: '1d' });
      },
      builtFile,
    );
  }

  async function render(request: FastifyRequest): Promise<string> {
    const user = request.signedIn?.user ?? null;
    const actor = request.signedIn?.actor ?? null;
    const data: InitialData = {
      user:
        user && actor
          ? {
              id: user.id,
              firstName: user.firstName,
              surname: user.surname,
              email: user.email,
              role: user.role,
              customerId: user.customerId,
              companyName: user.companyName,
              boltCustomer: actor.boltCustomer,
              resellerEnabled: actor.resellerEnabled,
              readOnly: user.readOnly,
              unpaidInvoices:
                user.customerId !== null && options.unpaidInvoices
                  ? await options.unpaidInvoices(user.customerId, user.unpaidInvoices ?? 0)
                  : (user.unpaidInvoices ?? 0),
            }
          : null,
      // Signed in, the user's own brand wherever they signed in; before, the brand of the host (a reseller's
      // custom URL), so a reseller's customers see its sign-in pages.
      branding: user
        ? await options.shell.brandingFor(user.customerId)
        : await options.shell.brandingForHost(request.headers.host),
      providerSiteUrl: options.providerSiteUrl,
      version: options.version,
      commitId: options.commitId,
      demo: options.demo,
      ...(request.signedIn?.mfaEnrolmentRequired ? { mfaEnrolmentRequired: true } : {}),
    };
    const path = request.url.split('?')[0] ?? '/';
    const page = matchPage(path);
    const head = [
      routePreloads(routeChunks, page),
      earlyReads(path, page, user !== null),
      `<meta name="_csrf" content="${attr(request.csrfToken)}">`,
      `<meta name="_csrf_header" content="${CSRF_HEADER_NAME}">`,
      `<meta name="_csrf_parameter" content="${CSRF_FIELD_NAME}">`,
      `<script type="application/json" id="initial-data">${scriptSafeJson(data)}</script>`,
    ].join('');
    // A function, so no '$' in the page data is read as a replacement pattern.
    return brandHead(template, data.branding).replace('</head>', () => `${head}</head>`);
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply, status: number) {
    // Never compressed on the fly (@fastify/compress's own opt-out, for a page answered on an API route's
    // address): the page carries the CSRF token beside texts others choose, such as a reseller's brand name,
    // which is what a compression side channel (BREACH) needs; and it is small.
    request.headers['x-no-compression'] = '1';
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(await render(request));
  }

  app.addHook('onRequest', async (request, reply) => {
    if (!isNavigation(request)) return;
    const path = request.url.split('?')[0] ?? '/';
    // The OpenAPI document opens as JSON in a browser too (the reference page links to it).
    if (isStaticAsset(path) || path === ROUTES.openApi.document.path) return;
    const page = matchPage(path);
    const signedIn = request.signedIn !== null;
    const mfaStep = mfaRedirect(request, page);
    if (mfaStep) return reply.redirect(mfaStep);
    if (page === 'demoMails' && !options.demo) return sendPage(request, reply, 404);
    if (page === 'login' && signedIn) return reply.redirect('/');
    if (page && !PUBLIC_PAGES.includes(page) && !signedIn) return reply.redirect('/login');
    // The admin area, its pages included, exists only for provider admins (002 §2.2).
    if (isAdminAreaPath(path) && !(request.signedIn && isProviderAdmin(request.signedIn.actor))) {
      return signedIn ? sendPage(request, reply, 404) : reply.redirect('/login');
    }
    if (page && request.signedIn && !mayOpenPage(request.signedIn.actor, page)) return sendPage(request, reply, 404);
    return sendPage(request, reply, page ? 200 : 404);
  });
}
