import fastifyMultipart from '@fastify/multipart';
import { IMAGE_UPLOAD_LIMITS, ok, RESELLER_IMAGE_FILE_NAME, type ResellerImageKind, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { ResellerSettingsService, SettingsUpload } from './service.js';

const IMAGE_FIELDS = new Set<string>(['logo', 'favicon']);
const isImageField = (name: string): name is ResellerImageKind => IMAGE_FIELDS.has(name);

/**
 * A section's multipart body (000 §7): the settings fields as text and the logo and favicon files. A file over
 * the limit stops the reading and is reported on its field; an empty file part (no file chosen) is no file.
 * A JSON body is read as fields only.
 */
async function readSettingsUpload(request: FastifyRequest): Promise<SettingsUpload> {
  const upload: SettingsUpload = { fields: {}, files: {}, tooLarge: null };
  if (!request.isMultipart()) {
    const body = request.body;
    if (body && typeof body === 'object') upload.fields = body as Record<string, unknown>;
    return upload;
  }
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      upload.fields[part.fieldname] = String(part.value);
      continue;
    }
    const kind = part.fieldname;
    if (!isImageField(kind) || upload.files[kind]) {
      part.file.resume();
      continue;
    }
    try {
      const bytes = await part.toBuffer();
      if (bytes.length > 0) upload.files[kind] = bytes;
    } catch (error) {
      if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      upload.tooLarge = kind;
      return upload;
    }
  }
  return upload;
}

/**
 * Reseller settings (000 §7, 002 §7.4): the screen's reads, the three sections' multipart PUTs for the reseller's
 * super admin (/admin/account/{section}) and the provider admin (/boltadmin/customers/{customerId}/{section}),
 * and the stored images at /public/downloads/img/{filename}. Multipart parsing is registered for the PUTs only,
 * with the images' size limit.
 */
export async function registerResellerSettingsRoutes(
  app: FastifyInstance,
  deps: { settings: ResellerSettingsService },
): Promise<void> {
  const { settings } = deps;
  const r = ROUTES.resellerSettings;
  const ownCustomerId = (request: FastifyRequest) => {
    const actor = requireSignedIn(request).actor;
    // The audience (resellerSuperAdmin) lets in only users of a customer.
    if (actor.customerId === null) throw notFound();
    return { actor, customerId: actor.customerId };
  };

  route(app, r.own, async (request) => {
    const { actor, customerId } = ownCustomerId(request);
    return ok(await settings.view(actor, customerId));
  });

  route(app, r.provider, async (request) => {
    const { customerId } = parseWith(r.provider.params, request.params);
    return ok(await settings.view(requireSignedIn(request).actor, customerId));
  });

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: IMAGE_UPLOAD_LIMITS.maxBytes, files: 2, fields: 30, parts: 32, fieldSize: 1024 },
    });

    route(scope, r.saveOwn, async (request) => {
      const { section } = parseWith(r.saveOwn.params, request.params);
      const { actor, customerId } = ownCustomerId(request);
      return ok(await settings.save(actor, customerId, section, await readSettingsUpload(request)));
    });

    route(scope, r.saveProvider, async (request) => {
      const { customerId, section } = parseWith(r.saveProvider.params, request.params);
      const actor = requireSignedIn(request).actor;
      return ok(await settings.save(actor, customerId, section, await readSettingsUpload(request)));
    });
  });

  // The name changes with the content, so a name's bytes never change: cached for a year, never sniffed.
  route(app, r.image, async (request, reply) => {
    const { filename } = parseWith(r.image.params, request.params);
    const png = RESELLER_IMAGE_FILE_NAME.test(filename) ? await settings.image(filename) : null;
    if (!png) throw notFound();
    return reply
      .type('image/png')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(png);
  });
}
