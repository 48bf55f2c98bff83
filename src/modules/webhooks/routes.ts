import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorResponse, ListEnvelope, PageQuery } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import { requireAdmin } from '../api-keys/routes.js';
import type { WebhookService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const tags = ['admin: webhooks'];
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const EndpointView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  models: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  source: Type.Enum(['config', 'admin']),
  secret: Type.String({ description: 'Masked: only the last 4 characters' }),
  createdAt: Nullable(Type.String()),
  updatedAt: Nullable(Type.String()),
});
const DeliveryView = Type.Object({
  id: Type.String(),
  endpointId: Type.String(),
  event: Type.String(),
  model: Nullable(Type.String()),
  status: Type.Enum(['pending', 'succeeded', 'failed']),
  attempts: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Nullable(Type.String()),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  nextAttemptAt: Nullable(Type.String()),
  redeliveryOf: Nullable(Type.String()),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
});
const Fields = {
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  events: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20, uniqueItems: true }),
  models: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100, uniqueItems: true }),
  secret: Type.String({ minLength: 16, maxLength: 200 }),
  enabled: Type.Boolean(),
};
const CreateBody = Type.Object(
  { url: Fields.url, events: Fields.events, secret: Fields.secret, models: Type.Optional(Fields.models), enabled: Type.Optional(Fields.enabled) },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  { url: Type.Optional(Fields.url), events: Type.Optional(Fields.events), secret: Type.Optional(Fields.secret), models: Type.Optional(Fields.models), enabled: Type.Optional(Fields.enabled) },
  { additionalProperties: false, minProperties: 1 },
);

export function webhookAdminRoutes(service: WebhookService, kick: () => void) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const common = { config: { access: 'authenticated' as const }, onRequest: async (req: Parameters<typeof requireAdmin>[0]) => requireAdmin(req) };

    app.get('/api/admin/webhooks', {
      ...common,
      schema: { tags, summary: 'List webhook endpoints (secrets masked)', querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: ListEnvelope(EndpointView), ...errors } },
    }, async (req) => {
      const { page, limit } = req.query;
      const all = (await service.allEndpoints()).map((e) => service.present(e));
      const start = (page - 1) * limit;
      return { data: all.slice(start, start + limit), pagination: { page, limit, hasMore: all.length > start + limit } };
    });

    app.post('/api/admin/webhooks', {
      ...common,
      schema: { tags, summary: 'Add a webhook endpoint', body: CreateBody, response: { 201: Type.Object({ data: EndpointView }), ...errors } },
    }, async (req, reply) => reply.code(201).send({ data: service.present(await service.create(req.body)) }));

    app.get('/api/admin/webhooks/deliveries', {
      ...common,
      schema: {
        tags,
        summary: 'The delivery log',
        querystring: Type.Object({ ...PageQuery, status: Type.Optional(Type.Enum(['pending', 'succeeded', 'failed'])), endpointId: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false }),
        response: { 200: ListEnvelope(DeliveryView), ...errors },
      },
    }, (req) => service.deliveries(req.query));

    app.post('/api/admin/webhooks/deliveries/:id/redeliver', {
      ...common,
      schema: { tags, summary: 'Send a delivery again (as a new delivery)', params: Params, response: { 202: Type.Object({ data: DeliveryView }), ...errors } },
    }, async (req, reply) => {
      const data = await service.redeliver(req.params.id);
      kick();
      return reply.code(202).send({ data });
    });

    app.patch('/api/admin/webhooks/:id', {
      ...common,
      schema: { tags, summary: 'Change a webhook endpoint', params: Params, body: PatchBody, response: { 200: Type.Object({ data: EndpointView }), ...errors } },
    }, async (req) => ({ data: service.present(await service.update(req.params.id, req.body)) }));

    app.delete('/api/admin/webhooks/:id', {
      ...common,
      schema: { tags, summary: 'Remove a webhook endpoint', params: Params, response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      await service.remove(req.params.id);
      return reply.code(204).send(null);
    });
  };
}
