import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ErrorResponse, ListEnvelope } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import { CreateSourceBody, ListSourcesQuery, PatchSourceBody, Source } from './schemas.js';
import type { SourceService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const tags = ['sources'];
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function sourceRoutes(service: SourceService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/v1/sources', {
      config: { access: { model: 'sources', action: 'read' } },
      schema: { tags, summary: "List a project's sources", querystring: ListSourcesQuery, response: { 200: ListEnvelope(Source), ...errors } },
    }, (req) => service.list(req.query));

    app.post('/v1/sources', {
      config: { access: { model: 'sources', action: 'create' } },
      schema: { tags, summary: 'Create a source', body: CreateSourceBody, response: { 201: Source, ...errors } },
    }, async (req, reply) => reply.code(201).send(await service.create(req.body)));

    app.get('/v1/sources/:id', {
      config: { access: { model: 'sources', action: 'read' } },
      schema: { tags, summary: 'Get a source', params: IdParams, response: { 200: Source, ...errors } },
    }, (req) => service.get(req.params.id));

    app.patch('/v1/sources/:id', {
      config: { access: { model: 'sources', action: 'update' } },
      schema: { tags, summary: "Update a source's name or config", params: IdParams, body: PatchSourceBody, response: { 200: Source, ...errors } },
    }, (req) => service.update(req.params.id, req.body));

    app.delete('/v1/sources/:id', {
      config: { access: { model: 'sources', action: 'delete' } },
      schema: { tags, summary: 'Delete a source (cancels its active run)', params: IdParams, response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      await service.remove(req.params.id);
      return reply.code(204).send(null);
    });
  };
}
