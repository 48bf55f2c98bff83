import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type, { type Static } from 'typebox';
import { AppError } from '../../kernel/errors/app-error.js';
import { ErrorResponse, ListEnvelope } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import { RESERVED_MODEL_NAMES } from './models.js';
import { parseSort, whereFromQuery } from './query.js';
import { ListContentQuery, recordSchema, RecordParams } from './schemas.js';
import type { ContentService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
// Records are built field by field by the service (hidden fields already left out), so plain
// JSON.stringify is safe; the schema-driven serializer spends most of a list answer on the nullable
// (anyOf) fields. The schemas stay on the routes for the OpenAPI document (the admin UI reads them).
// Writes need a credential whatever the model says (no model allows public writes); going through
// the guard's `authenticated` rule also gives cookie sessions its cross-site (Origin) check.
const writeAccess = { access: 'authenticated' as const };
const serializerCompiler = () => (data: unknown) => JSON.stringify(data);
const AnyBody = Type.Record(Type.String(), Type.Unknown(), { description: 'The model\'s fields (see docs/content.md)' });

/**
 * `/api/{model}` for every declared model. Each model gets its own static routes (typed answers in
 * the OpenAPI document, and static routes never shadow `/api/auth`, `/api/files`, …); a parametric
 * fallback answers `model_not_found` for anything else.
 */
export function contentRoutes(service: ContentService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    for (const model of service.models) {
      const tags = [`content: ${model.name}`];
      const record = recordSchema(model);
      const base = `/api/${model.name}`;
      app.get(base, {
        config: { access: 'public' },
        serializerCompiler,
        schema: { tags, summary: `List ${model.name}`, querystring: ListContentQuery, response: { 200: ListEnvelope(record), ...errors } },
      }, (req) => {
        const query = req.query as Static<typeof ListContentQuery> & Record<string, unknown>;
        return service.list(req.principal, model.name, {
          page: query.page,
          limit: query.limit,
          sort: parseSort(model, query.sort),
          where: whereFromQuery(model, query),
        });
      });
      app.post(base, {
        config: writeAccess,
        serializerCompiler,
        schema: { tags, summary: `Create a ${model.singular}`, body: AnyBody, response: { 201: Type.Object({ data: record }), ...errors } },
      }, async (req, reply) => reply.code(201).send({ data: await service.create(req.principal, model.name, req.body) }));
      app.get(`${base}/:id`, {
        config: { access: 'public' },
        serializerCompiler,
        schema: { tags, summary: `Get a ${model.singular}`, params: RecordParams, response: { 200: Type.Object({ data: record }), ...errors } },
      }, async (req) => ({ data: await service.get(req.principal, model.name, req.params.id) }));
      app.patch(`${base}/:id`, {
        config: writeAccess,
        serializerCompiler,
        schema: { tags, summary: `Update a ${model.singular}`, params: RecordParams, body: AnyBody, response: { 200: Type.Object({ data: record }), ...errors } },
      }, async (req) => ({ data: await service.update(req.principal, model.name, req.params.id, req.body) }));
      app.delete(`${base}/:id`, {
        config: writeAccess,
        serializerCompiler,
        schema: { tags, summary: `Delete a ${model.singular}`, params: RecordParams, response: { 204: { type: 'null' }, ...errors } },
      }, async (req, reply) => {
        await service.remove(req.principal, model.name, req.params.id);
        return reply.code(204).send(null);
      });
    }
    const unknown = (req: { params: unknown }) => {
      const name = (req.params as { model: string }).model;
      if (RESERVED_MODEL_NAMES.includes(name)) throw new AppError('route_not_found', `No such route under /api/${name}`);
      throw new AppError('model_not_found', `There is no content model "${name}"`);
    };
    for (const path of ['/api/:model', '/api/:model/:id'])
      app.route({ method: ['GET', 'POST', 'PATCH', 'DELETE'], url: path, config: { access: 'public' }, schema: { hide: true }, handler: unknown });
  };
}
