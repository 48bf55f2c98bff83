import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { isAdmin, PermissionDocumentSchema, type PermissionDocument } from '../../kernel/auth/principal.js';
import { AppError } from '../../kernel/errors/app-error.js';
import { ErrorResponse, ListEnvelope, offsetOf, PageQuery, toPage } from '../../kernel/http/pagination.js';
import { principalOf } from '../../kernel/http/guard.js';
import type { App } from '../../kernel/http/server.js';
import type { ApiKeyService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const tags = ['admin: api keys'];

/** What the admin API shows of a key: never the secret or its hash. */
export const ApiKeySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  permissions: PermissionDocumentSchema,
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const CreateBody = Type.Object({ name: Name, permissions: Type.Optional(Type.Unknown()) }, { additionalProperties: false });
const PatchBody = Type.Object({ name: Type.Optional(Name), permissions: Type.Optional(Type.Unknown()) }, { additionalProperties: false, minProperties: 1 });
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Admin users (admin, super_admin) and admin keys only. */
export function requireAdmin(request: FastifyRequest) {
  if (!isAdmin(principalOf(request))) throw new AppError('forbidden', 'Only administrators (or admin API keys) may do this');
}

const summary = (k: { id: string; name: string; prefix: string; permissions: PermissionDocument; createdAt: string; lastUsedAt: string | null }) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  permissions: k.permissions,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
});

export function apiKeyAdminRoutes(service: ApiKeyService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'authenticated' as const };

    app.get('/api/admin/api-keys', {
      config,
      onRequest: async (req) => requireAdmin(req),
      schema: { tags, summary: 'List API keys (no secrets)', querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: ListEnvelope(ApiKeySummary), ...errors } },
    }, async (req) => {
      const { page, limit } = req.query;
      const keys = await service.list({ includeRevoked: false, limit: limit + 1, offset: offsetOf(page, limit) });
      return toPage(keys.map(summary), page, limit);
    });

    app.post('/api/admin/api-keys', {
      config,
      onRequest: async (req) => requireAdmin(req),
      schema: {
        tags,
        summary: 'Create an API key; the plaintext key is in the answer once',
        body: CreateBody,
        response: { 201: Type.Object({ data: Type.Object({ ...ApiKeySummary.properties, key: Type.String() }) }), ...errors },
      },
    }, async (req, reply) => {
      const created = await service.create({ name: req.body.name.trim(), permissions: req.body.permissions ?? {}, createdBy: principalOf(req).id });
      return reply.code(201).send({ data: { ...summary(created), key: created.key } });
    });

    app.patch('/api/admin/api-keys/:id', {
      config,
      onRequest: async (req) => requireAdmin(req),
      schema: { tags, summary: 'Rename a key or change its permissions', params: Params, body: PatchBody, response: { 200: Type.Object({ data: ApiKeySummary }), ...errors } },
    }, async (req) => {
      const body = req.body;
      const updated = await service.update(req.params.id, {
        ...(body.name !== undefined ? { name: body.name.trim() } : {}),
        ...(body.permissions !== undefined ? { permissions: body.permissions } : {}),
      });
      return { data: summary(updated) };
    });

    app.delete('/api/admin/api-keys/:id', {
      config,
      onRequest: async (req) => requireAdmin(req),
      schema: { tags, summary: 'Revoke a key (effective at once)', params: Params, response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      await service.revoke(req.params.id);
      return reply.code(204).send(null);
    });
  };
}
