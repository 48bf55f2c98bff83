import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { AppError } from '../../kernel/errors/app-error.js';
import { ErrorResponse, ListEnvelope, PageQuery } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import type { FileService, IncomingFile } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 415: ErrorResponse };
const tags = ['files'];
const Thumb = Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer() });
export const FileRecord = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  mimeType: Type.String(),
  size: Type.Integer(),
  url: Type.String(),
  alt: Type.Union([Type.String(), Type.Null()]),
  folder: Type.String(),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
  thumbnails: Type.Record(Type.String(), Thumb),
  createdAt: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
});
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Reads every part into memory (bounded by the per-file limit) and maps multipart failures to our codes. */
async function readParts(req: FastifyRequest, service: FileService, fileField: (name: string) => boolean) {
  if (!req.isMultipart()) throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data');
  const files: IncomingFile[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (!fileField(part.fieldname))
          throw new AppError('validation_failed', `${part.fieldname} is not a file field here`, { details: [{ field: part.fieldname, message: 'is not a known file field' }] });
        files.push({ filename: part.filename || 'file', data: await part.toBuffer() });
      } else if (part.fieldname === 'alt' || part.fieldname === 'folder') {
        fields[part.fieldname] = String(part.value);
      } else {
        throw new AppError('validation_failed', `${part.fieldname} is not a known field`, { details: [{ field: part.fieldname, message: 'is not a known field' }] });
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('payload_too_large', `A file is larger than ${service.settings.maxFileBytes} bytes`, { details: [{ field: 'file', message: 'is too large' }] });
    if (code === 'FST_FILES_LIMIT') throw new AppError('payload_too_large', `At most ${service.settings.maxFiles} files per request`);
    throw new AppError('invalid_multipart', `The multipart body could not be read: ${(err as Error).message}`);
  }
  if (!files.length) throw new AppError('validation_failed', 'No file was sent', { details: [{ field: 'file', message: 'is required' }] });
  return { files, fields };
}

export function fileRoutes(service: FileService) {
  return async (root: App) => {
    // Multipart lives only in this scope: everywhere else stays JSON-only.
    await root.register(async (scope) => {
      await scope.register(multipart, {
        limits: { fileSize: service.settings.maxFileBytes, files: service.settings.maxFiles, fields: 10, fieldSize: 10_000, parts: service.settings.maxFiles + 10 },
      });
      const app = scope.withTypeProvider<TypeBoxTypeProvider>();

      app.post('/api/upload', {
        config: { access: 'authenticated' },
        schema: { tags, summary: 'Upload one file (multipart: file, alt, folder)', response: { 201: Type.Object({ data: FileRecord }), ...errors } },
      }, async (req, reply) => {
        service.assert(req.principal, 'create');
        const { files, fields } = await readParts(req, service, (name) => name === 'file');
        if (files.length > 1) throw new AppError('validation_failed', 'Send one file, or use /api/upload/multiple', { details: [{ field: 'file', message: 'must be a single file' }] });
        const [record] = await service.upload(req.principal, files, fields);
        return reply.code(201).send({ data: record! });
      });

      app.post('/api/upload/multiple', {
        config: { access: 'authenticated' },
        schema: { tags, summary: 'Upload several files (repeated files[]); all or none are stored', response: { 201: Type.Object({ data: Type.Array(FileRecord) }), ...errors } },
      }, async (req, reply) => {
        service.assert(req.principal, 'create');
        const { files, fields } = await readParts(req, service, (name) => name === 'files[]' || name === 'files');
        return reply.code(201).send({ data: await service.upload(req.principal, files, fields) });
      });
    });

    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/api/files', {
      config: { access: 'public' },
      schema: { tags, summary: 'List files', querystring: Type.Object({ ...PageQuery, folder: Type.Optional(Type.String({ maxLength: 300 })) }, { additionalProperties: false }), response: { 200: ListEnvelope(FileRecord), 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse } },
    }, (req) => service.list(req.principal, req.query));

    app.get('/api/files/:id', {
      config: { access: 'public' },
      schema: { tags, summary: 'A file record', params: Params },
    }, async (req) => ({ data: service.present(await service.get(req.principal, req.params.id)) }));

    const serve = async (req: FastifyRequest<{ Params: { id: string; name?: string } }>, reply: import('fastify').FastifyReply) => {
      const opened = await service.open(req.principal, req.params.id, req.params.name);
      reply.header('Content-Type', opened.mimeType);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
      reply.header('Cache-Control', opened.public ? 'public, max-age=31536000, immutable' : 'private, no-store');
      const inline = opened.mimeType.startsWith('image/') || opened.mimeType === 'application/pdf' || opened.mimeType.startsWith('text/');
      reply.header('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(opened.file.filename)}`);
      return reply.send(opened.stream);
    };
    app.get('/api/files/:id/content', { config: { access: 'public' }, schema: { tags, summary: 'The file\'s bytes', params: Params } }, serve);
    app.get('/api/files/:id/thumbnails/:name', {
      config: { access: 'public' },
      schema: { tags, summary: 'A thumbnail (WebP)', params: Type.Object({ id: Type.String({ maxLength: 64 }), name: Type.String({ maxLength: 20 }) }) },
    }, serve);

    app.delete('/api/files/:id', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Delete a file', params: Params, response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      await service.remove(req.principal, req.params.id);
      return reply.code(204).send(null);
    });
  };
}
