import { LOG_FILES, logFileNameSchema, MESSAGES, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { asDownload } from '../../http/download.js';
import { badRequest, forbidden, parseWith, unauthenticated } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { AuthenticatedMachine } from '../machine-auth/credentials.js';
import type { MachineCommandService } from './service.js';

const logFileQuery = z.object({ filename: logFileNameSchema.optional() });

/**
 * Machine commands (001 §7, issue #5): upload of log files and their download for provider admins, and the
 * agents' log file uploads (machine credential, like the restic REST backend; no session, no CSRF). The
 * storage refresh is answered on the machines feature's action path (?refresh=true).
 */
export function registerMachineCommandRoutes(app: FastifyInstance, deps: { commands: MachineCommandService }): void {
  const { commands } = deps;
  const r = ROUTES.machineCommands;

  route(app, r.uploadLogFiles, async (request) => {
    const path = parseWith(r.uploadLogFiles.params, request.params);
    const { uploadupdaterfiles } = parseWith(r.uploadLogFiles.query, request.query);
    return ok(await commands.uploadLogFiles(path, uploadupdaterfiles));
  });

  // With ?filename= the file as a download; without, the list of the machine's files (ours: 001 §3 'Log file').
  route(app, r.logFiles, async (request, reply) => {
    const path = parseWith(r.logFiles.params, request.params);
    const { filename } = parseWith(logFileQuery, request.query);
    if (filename === undefined) return ok(await commands.logFiles(path));
    const file = await commands.logFile(path, filename);
    return asDownload(reply, 'text/plain; charset=utf-8', file.fileName)
      .header('Cache-Control', 'no-store')
      .send(file.content);
  });

  const uploaders = new WeakMap<FastifyRequest, AuthenticatedMachine>();
  route(
    app,
    r.agentLogUpload,
    async (request) => {
      const machine = uploaders.get(request);
      if (!machine) throw unauthenticated();
      const { fileName, lastModified } = parseWith(r.agentLogUpload.query, request.query);
      if (typeof request.body !== 'string') throw badRequest(MESSAGES.backupMachine.logFilePlainText);
      await commands.storeLogFile(machine.id, { fileName, content: request.body, lastModified });
      return ok(null);
    },
    {
      bodyLimit: LOG_FILES.maxBytes,
      // Who is uploading, before any of the body is read: this machine's own credential only.
      onRequest: async (request, reply) => {
        const machine = await commands.authenticate(request.headers.authorization);
        if (!machine) {
          reply.header('WWW-Authenticate', 'Basic realm="portal-agent", charset="UTF-8"');
          throw unauthenticated();
        }
        if (String(machine.id) !== (request.params as { machineId?: string }).machineId) throw forbidden();
        uploaders.set(request, machine);
      },
    },
  );
}
