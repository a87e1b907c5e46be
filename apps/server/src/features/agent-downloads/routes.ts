import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AGENT_DOWNLOADS,
  type AgentInstallerQuery,
  agentInstallerQuerySchema,
  LINKING_CODE,
  MESSAGES,
  RESTIC_INSTALL_HINTS,
  ROUTES,
} from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asDownload } from '../../http/download.js';
import { badRequest, notFound, parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';

export interface AgentDownloadDeps {
  /** The agent's build (apps/agent/dist): the bundle, the Linux x64 executable and the installer templates. */
  distDir: string;
  /** PUBLIC_URL; without it the address the caller used. */
  publicUrl: string | undefined;
}

/** Addresses the installers may name: scheme, host and port only, so one fits in a quoted shell word. */
const SERVER_ADDRESS = /^https?:\/\/[A-Za-z0-9.\-:[\]]+$/;

/** The portal's address as the agent should reach it. */
export function serverAddress(publicUrl: string | undefined, request: FastifyRequest): string {
  let origin: string;
  try {
    origin = new URL(publicUrl ?? `${request.protocol}://${request.host}`).origin;
  } catch {
    throw badRequest(MESSAGES.agentInstall.badServer);
  }
  if (!SERVER_ADDRESS.test(origin)) throw badRequest(MESSAGES.agentInstall.badServer);
  return origin;
}

/**
 * An installer template with the portal's values in place of its @@NAME@@ markers. Every value is checked
 * to hold no quote (the address by SERVER_ADDRESS, the code by the domain's alphabet, the package as a
 * number, the rest constants), so none can end the quoted word it is put into.
 */
export function fillInstaller(template: string, values: Record<string, string>): string {
  return template.replace(/@@([A-Z_]+)@@/g, (marker, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`installer marker ${marker} has no value`);
    if (/['"`$\\\n]/.test(value)) throw new Error(`installer value for ${marker} is not safe to quote`);
    return value;
  });
}

function installerValues(server: string, query: AgentInstallerQuery): Record<string, string> {
  return {
    SERVER: server,
    CODE: query.code ?? '',
    PACKAGE: query.package === undefined ? '' : String(query.package),
    ALPHABET: LINKING_CODE.alphabet,
    BUNDLE_PATH: ROUTES.agentDownloads.bundle.path,
    EXECUTABLE_PATH: ROUTES.agentDownloads.linuxExecutable.path,
    HINT_DEBIAN: RESTIC_INSTALL_HINTS.debian,
    HINT_FEDORA: RESTIC_INSTALL_HINTS.fedora,
    HINT_MACOS: RESTIC_INSTALL_HINTS.macos,
    HINT_WINDOWS: RESTIC_INSTALL_HINTS.windows,
    HINT_OTHER: RESTIC_INSTALL_HINTS.other,
  };
}

/** One file of the agent's build, or 404 when this server was started without it. */
async function sendBuilt(reply: FastifyReply, file: string, type: string) {
  const size = await stat(file).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) throw notFound(MESSAGES.agentInstall.notBuilt);
  const name = file.split('/').pop() ?? file;
  return asDownload(reply, type, name).header('Content-Length', size).send(createReadStream(file));
}

/**
 * Getting the agent (issue 14): the built agent and the installers, public (see ROUTES.agentDownloads).
 * The installers are filled in per request: the portal's address, and the linking code and package of the
 * query (checked first: a malformed code is a 400 on `code`, never a script).
 */
export function registerAgentDownloadRoutes(app: FastifyInstance, deps: AgentDownloadDeps): void {
  const built = (name: string) => join(deps.distDir, name);
  route(app, ROUTES.agentDownloads.bundle, (_request, reply) =>
    sendBuilt(reply, built(AGENT_DOWNLOADS.bundle), 'application/javascript; charset=utf-8'),
  );
  route(app, ROUTES.agentDownloads.linuxExecutable, (_request, reply) =>
    sendBuilt(reply, built(AGENT_DOWNLOADS.linuxExecutable), 'application/octet-stream'),
  );
  const installer = (name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const query = parseWith(agentInstallerQuerySchema, request.query);
    const server = serverAddress(deps.publicUrl, request);
    const template = await readFile(built(name), 'utf8').catch(() => null);
    if (template === null) throw notFound(MESSAGES.agentInstall.notBuilt);
    return (
      reply
        // text/plain: PowerShell's irm hands iex a string only for text.
        .type('text/plain; charset=utf-8')
        // A script with a linking code in it is not kept by any cache.
        .header('Cache-Control', 'no-store')
        .send(fillInstaller(template, installerValues(server, query)))
    );
  };
  route(app, ROUTES.agentDownloads.unixInstaller, installer(AGENT_DOWNLOADS.unixInstaller));
  route(app, ROUTES.agentDownloads.windowsInstaller, installer(AGENT_DOWNLOADS.windowsInstaller));
}
