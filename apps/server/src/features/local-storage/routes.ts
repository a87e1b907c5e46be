import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  MACHINE_DELETABLE_OBJECT_TYPES,
  RETENTION_MESSAGES,
  ROUTES,
  TAMPERING_TEXTS,
  type TamperingAction,
} from '@portal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { route } from '../../http/route.js';
import type { MachineCredentials } from '../machine-auth/credentials.js';
import type { TamperingService } from '../storage-tampering/service.js';
import { createMachineAccess, type MachineAccess } from './machine-access.js';
import { isMachineIdSegment, isObjectName, isObjectType, objectPath, parseRange } from './paths.js';
import { embeddedRepositoryDir, type LocalStorageRepo } from './repo.js';
import {
  createRepository,
  deleteFile,
  fileSize,
  listObjects,
  openForReading,
  repositoryExists,
  saveFile,
} from './store.js';

export interface LocalStorageDeps {
  /** Where each machine's repository is. */
  places: Pick<LocalStorageRepo, 'machinePlace'>;
  /** DATA_DIR: repositories live under `{dataDir}/storage`. */
  dataDir: string;
  credentials: Pick<MachineCredentials, 'verify'>;
  /** Records a machine's refused delete or overwrite (audit trail, the provider's alert once per burst). */
  tampering: Pick<TamperingService, 'attempted'>;
  /** How long a verified credential and the machine's folder are remembered (default 3 s, at most 4 s). */
  cacheMs?: number;
}

const V2 = 'application/vnd.x.restic.rest.v2';
const V1 = 'application/vnd.x.restic.rest.v1';
const withHead = { head: true };
/** restic's objects go out and come in byte for byte as stored: never compressed on the fly, nor inflated. */
const storageRoute: typeof route = (app, entry, handler, options = {}) =>
  route(app, entry, handler, { ...options, compress: false, decompress: false });
const r = ROUTES.restic;

/**
 * The embedded `local` storage's restic REST backend (DESIGN §7; restic's "REST backend" reference,
 * API versions 1 and 2), mounted at `/restic/{machineId}/`. Every request carries the machine's own
 * credential as HTTP basic auth (`{machineId}:{token}`) and may reach that machine's repository only.
 * Bodies are streamed to disk, never buffered, and the app's body limit does not apply here. A machine
 * may create, read, list and write, but never replace an object or the config, and delete only its lock
 * files (issue 16): what ransomware on the machine can do to its backups is add to them. Every refused delete
 * or replacement is recorded before the answer goes out (issue 32; `features/storage-tampering`).
 *
 * Returns the credential check, whose `forget(machineId)` makes a revocation immediate (it is
 * effective within the cache time, under 5 s, anyway).
 */
export function registerLocalStorageRoutes(app: FastifyInstance, deps: LocalStorageDeps): { access: MachineAccess } {
  const access = createMachineAccess({
    credentials: deps.credentials,
    ...(deps.cacheMs !== undefined ? { ttlMs: deps.cacheMs } : {}),
  });
  const placeTtl = Math.min(deps.cacheMs ?? 3_000, 4_000);
  const places = new Map<number, { dir: string | null; until: number }>();
  const repoDirs = new WeakMap<FastifyRequest, string>();

  /** The machine's repository folder; null when its location is not on the embedded storage. */
  async function folderOf(machineId: number): Promise<string | null> {
    const at = Date.now();
    const hit = places.get(machineId);
    if (hit && hit.until > at) return hit.dir;
    const place = await deps.places.machinePlace(machineId);
    const dir = place ? embeddedRepositoryDir(deps.dataDir, place) : null;
    if (places.size > 10_000) places.clear();
    places.set(machineId, { dir, until: at + placeTtl });
    return dir;
  }

  const plain = (reply: FastifyReply, status: number, text: string) =>
    reply.code(status).type('text/plain; charset=utf-8').send(`${text}\n`);

  app.register(
    async (scope) => {
      // restic sends application/octet-stream; the handlers read the raw request stream themselves.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

      // Who is asking, before any body is read.
      scope.addHook('onRequest', async (request, reply) => {
        const machine = await access.authenticate(request.headers.authorization);
        if (!machine) {
          reply.header('WWW-Authenticate', 'Basic realm="restic", charset="UTF-8"');
          return plain(reply, 401, 'Unauthorized');
        }
        const { machineId } = request.params as { machineId?: string };
        if (machineId === undefined || !isMachineIdSegment(machineId) || Number(machineId) !== machine.id) {
          return plain(reply, 403, 'Forbidden');
        }
        const dir = await folderOf(machine.id);
        if (dir === null) return plain(reply, 404, 'This repository is not on the embedded storage');
        repoDirs.set(request, dir);
      });

      const dirOf = (request: FastifyRequest) => {
        const dir = repoDirs.get(request);
        if (!dir) throw new Error('repository folder not resolved');
        return dir;
      };

      const sendFile = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
        if (request.method === 'HEAD') {
          const size = await fileSize(path);
          if (size === null) return plain(reply, 404, 'Not Found');
          return reply.code(200).header('Content-Length', String(size)).type('application/octet-stream').send();
        }
        const opened = await openForReading(path, (size) => parseRange(request.headers.range, size));
        if (opened.kind === 'missing') return plain(reply, 404, 'Not Found');
        if (opened.kind === 'unsatisfiable') {
          return reply.header('Content-Range', `bytes */${opened.size}`).code(416).send();
        }
        reply.type('application/octet-stream').header('Accept-Ranges', 'bytes');
        if (opened.range) {
          const { start, end } = opened.range;
          reply
            .code(206)
            .header('Content-Range', `bytes ${start}-${end}/${opened.size}`)
            .header('Content-Length', String(end - start + 1));
        } else {
          reply.code(200).header('Content-Length', String(opened.size));
        }
        return reply.send(opened.stream);
      };

      /** Answers 403 once the attempt is recorded: a refusal the provider never hears of would hide an attack. */
      const refuse = async (
        request: FastifyRequest,
        reply: FastifyReply,
        attempt: { action: TamperingAction; object: string },
        text: string,
      ) => {
        const { machineId } = request.params as { machineId: string };
        await deps.tampering.attempted({
          machineId: Number(machineId),
          ...attempt,
          source: 'LOCAL',
          ipAddress: request.ip,
        });
        return plain(reply, 403, text);
      };

      const bodyOf = (request: FastifyRequest): Readable =>
        request.body instanceof Readable ? request.body : Readable.from([]);

      // POST /?create=true: the repository's folders (idempotent).
      storageRoute(scope, r.create, async (request, reply) => {
        const { create } = request.query as { create?: string };
        if (create !== 'true') return plain(reply, 400, 'Bad Request');
        await createRepository(dirOf(request));
        return plain(reply, 200, 'OK');
      });

      storageRoute(
        scope,
        r.readConfig,
        async (request, reply) => sendFile(request, reply, join(dirOf(request), 'config')),
        withHead,
      );

      storageRoute(scope, r.saveConfig, async (request, reply) => {
        const result = await saveFile(dirOf(request), 'config', bodyOf(request));
        if (result === 'noRepository') return plain(reply, 404, 'Repository not found');
        if (result === 'exists') {
          return refuse(
            request,
            reply,
            { action: 'overwrite', object: 'config' },
            'The config file exists and is never replaced',
          );
        }
        return plain(reply, 200, 'OK');
      });

      storageRoute(scope, r.deleteConfig, async (request, reply) =>
        refuse(request, reply, { action: 'delete', object: 'config' }, 'The config file is never deleted'),
      );

      storageRoute(scope, r.list, async (request, reply) => {
        const { type } = request.params as { type: string };
        if (!isObjectType(type)) return plain(reply, 400, 'Bad Request');
        const dir = dirOf(request);
        if (!(await repositoryExists(dir))) return plain(reply, 404, 'Repository not found');
        const objects = await listObjects(dir, type);
        const accept = request.headers.accept ?? '';
        if (accept.includes(V2)) return reply.code(200).type(V2).send(JSON.stringify(objects));
        return reply
          .code(200)
          .type(V1)
          .send(JSON.stringify(objects.map((o) => o.name)));
      });

      const objectParams = (request: FastifyRequest) => {
        const { type, name } = request.params as { type: string; name: string };
        return isObjectType(type) && isObjectName(name) ? { type, name } : null;
      };

      storageRoute(
        scope,
        r.readObject,
        async (request, reply) => {
          const object = objectParams(request);
          if (!object) return plain(reply, 400, 'Bad Request');
          return sendFile(request, reply, objectPath(dirOf(request), object.type, object.name));
        },
        withHead,
      );

      storageRoute(scope, r.saveObject, async (request, reply) => {
        const object = objectParams(request);
        if (!object) return plain(reply, 400, 'Bad Request');
        const result = await saveFile(dirOf(request), object, bodyOf(request));
        if (result === 'noRepository') return plain(reply, 404, 'Repository not found');
        if (result === 'hashMismatch') return plain(reply, 400, 'The content does not match its name');
        if (result === 'overwrite') {
          const attempt = { action: 'overwrite' as const, object: `${object.type}/${object.name}` };
          return refuse(request, reply, attempt, TAMPERING_TEXTS.overwriteRefused);
        }
        return plain(reply, 200, 'OK');
      });

      storageRoute(scope, r.deleteObject, async (request, reply) => {
        const object = objectParams(request);
        if (!object) return plain(reply, 400, 'Bad Request');
        // Ransomware on the machine must not destroy its backups (issue 16): only restic's own lock files
        // go; retention and every other deletion run on the portal, on the folder itself.
        if (!(MACHINE_DELETABLE_OBJECT_TYPES as readonly string[]).includes(object.type)) {
          const attempt = { action: 'delete' as const, object: `${object.type}/${object.name}` };
          return refuse(request, reply, attempt, RETENTION_MESSAGES.deleteRefused(object.type));
        }
        const deleted = await deleteFile(objectPath(dirOf(request), object.type, object.name));
        return deleted ? plain(reply, 200, 'OK') : plain(reply, 404, 'Not Found');
      });
    },
    // restic makes many small requests per backup: only problems are worth a log line.
    { logLevel: 'warn' },
  );

  return { access };
}
