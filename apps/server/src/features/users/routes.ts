import fastifyMultipart from '@fastify/multipart';
import {
  errorMessage,
  failure,
  importFileTooLarge,
  MESSAGES,
  ok,
  ROUTES,
  USER_IMPORT_EXAMPLE,
  USER_IMPORT_LIMITS,
  type UserImportResult,
  userEditSchema,
  userImportSchema,
  userLinkSchema,
} from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asDownload } from '../../http/download.js';
import { AppError, badRequest, parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { UserImportService } from './import.js';
import { ownCustomer, type UserService, type UserViews } from './service.js';
import { buildUserImportExample, ImportFileError, readUserImportFile } from './xlsx.js';

/**
 * The customer-side users calls of 002 §7.1 and 001 §7 (plus ours: roles, one user, linkable packages),
 * the bulk import and its example file.
 */
export async function registerUserRoutes(
  app: FastifyInstance,
  deps: { users: UserService; views: UserViews; imports: UserImportService },
): Promise<void> {
  const { users, views } = deps;
  const r = ROUTES.users;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;
  const own = (request: FastifyRequest) => ownCustomer(actorOf(request));

  route(app, r.list, async (request) => {
    const paging = parseWith(r.list.query, request.query);
    const { viewer, customerId } = own(request);
    return ok(await views.page(viewer, customerId, paging));
  });

  route(app, r.roles, async (request) => ok(users.roles(actorOf(request))));

  route(app, r.detail, async (request) => {
    const { userId } = parseWith(r.detail.params, request.params);
    const { viewer, customerId } = own(request);
    return ok(await views.detail(viewer, customerId, userId));
  });

  route(app, r.add, async (request) => {
    const payload = parseWith(r.add.body, request.body);
    return ok(await users.add(actorOf(request), payload));
  });

  // Edit (user form) and, with ?link=true, link to a package (002 §7.1): one path, two payloads.
  route(app, r.edit, async (request) => {
    const { userId } = parseWith(r.edit.params, request.params);
    const { link } = parseWith(r.edit.query, request.query);
    const session = requireSignedIn(request);
    if (link === 'true') {
      const { backupPackageId } = parseWith(userLinkSchema, request.body);
      return ok(await users.link(session.actor, userId, backupPackageId));
    }
    const payload = parseWith(userEditSchema, request.body);
    return ok(await users.edit(session.actor, session.sessionId, userId, payload));
  });

  route(app, r.linkablePackages, async (request) => {
    const { userId } = parseWith(r.linkablePackages.params, request.params);
    return ok(await users.linkablePackages(actorOf(request), userId));
  });

  route(app, r.unlink, async (request) => {
    const { userId, packageId } = parseWith(r.unlink.params, request.params);
    const { unlink } = parseWith(r.unlink.query, request.query);
    if (unlink !== 'true') throw badRequest(MESSAGES.user.notUnlinkCall);
    await users.unlink(actorOf(request), userId, packageId);
    return ok(null);
  });

  route(app, r.remove, async (request) => {
    const { userId } = parseWith(r.remove.params, request.params);
    await users.remove(actorOf(request), userId);
    return ok(null);
  });

  route(app, r.packages, async (request) => {
    const { userId } = parseWith(r.packages.params, request.params);
    const paging = parseWith(r.packages.query, request.query);
    const { viewer, customerId } = own(request);
    return ok(await views.packages(viewer, customerId, userId, paging));
  });

  route(app, r.machines, async (request) => {
    const { userId } = parseWith(r.machines.params, request.params);
    const paging = parseWith(r.machines.query, request.query);
    const { viewer, customerId } = own(request);
    return ok(await views.machines(viewer, customerId, userId, paging));
  });

  await registerImportRoutes(app, deps.imports);
}

/** The upload's file and skipAlreadyExisting field (002 §3 'Bulk import payload'). */
async function readImportUpload(request: FastifyRequest) {
  // Without a multipart body there is no file, which the schema answers with 'File is required'.
  let file: { name: string; type: string; data: Buffer } | null = null;
  const fields: Record<string, string> = {};
  try {
    const parts = request.isMultipart() ? request.parts() : [];
    for await (const part of parts) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
      else if (part.fieldname === 'file' && file === null) {
        file = { name: part.filename, type: part.mimetype, data: await part.toBuffer() };
      } else part.file.resume();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw badRequest(importFileTooLarge(USER_IMPORT_LIMITS.maxFileBytes / (1024 * 1024)), 'file');
    }
    throw error;
  }
  const payload = parseWith(userImportSchema, {
    file: file && { name: file.name, type: file.type },
    skipAlreadyExisting: fields.skipAlreadyExisting ?? false,
  });
  return { data: file?.data ?? Buffer.alloc(0), skipAlreadyExisting: payload.skipAlreadyExisting };
}

/**
 * POST /admin/account/users/import (002 §5.3, §8.2) and the example file. Multipart parsing is registered
 * for these routes only, with the import's size limits; every other route keeps JSON and forms.
 */
async function registerImportRoutes(app: FastifyInstance, imports: UserImportService): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: USER_IMPORT_LIMITS.maxFileBytes, files: 1, fields: 4, parts: 6, fieldSize: 1024 },
    });

    route(scope, ROUTES.users.import, async (request, reply) => {
      const actor = requireSignedIn(request).actor;
      const customerId = imports.customerOf(actor);
      const upload = await readImportUpload(request);
      let rows: Awaited<ReturnType<typeof readUserImportFile>>;
      try {
        rows = await readUserImportFile(upload.data);
      } catch (error) {
        if (error instanceof ImportFileError) throw badRequest(error.message, 'file');
        throw error;
      }
      const outcome = await imports.importUsers(actor, customerId, rows, upload.skipAlreadyExisting);
      if (outcome.kind === 'invalid') {
        throw new AppError(
          400,
          'VALIDATION_FAILED',
          outcome.problems.map((problem) => errorMessage(problem, '', 'VALIDATION_FAILED')),
        );
      }
      const result: UserImportResult = { imported: outcome.imported, skipped: outcome.skipped };
      if (outcome.problems.length === 0) return ok(result);
      const messages = outcome.problems.map((problem) => errorMessage(problem, '', 'PROCESSING_FAILED'));
      return reply.code(409).send({ ...failure('PROCESSING_FAILED', messages), result });
    });
  });

  let example: Promise<Buffer> | undefined;
  route(app, ROUTES.users.importExample, async (_request, reply) => {
    example ??= buildUserImportExample();
    return asDownload(reply, USER_IMPORT_EXAMPLE.mimeType, USER_IMPORT_EXAMPLE.fileName).send(await example);
  });
}
