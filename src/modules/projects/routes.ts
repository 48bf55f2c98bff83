import type { App } from '../../kernel/http/server.js';
import { ErrorResponse, ListEnvelope } from '../../kernel/http/pagination.js';
import { CreateProjectBody, IdParams, ListProjectsQuery, PatchProjectBody, Project, ProjectDocument } from './schemas.js';
import type { ProjectService } from './service.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const tags = ['projects'];

export function projectRoutes(service: ProjectService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/v1/projects', {
      config: { access: { model: 'projects', action: 'read' } },
      schema: { tags, summary: 'List projects', querystring: ListProjectsQuery, response: { 200: ListEnvelope(Project), ...errors } },
    }, (req) => service.list(req.query));

    app.post('/v1/projects', {
      config: { access: { model: 'projects', action: 'create' } },
      schema: { tags, summary: 'Create a project', body: CreateProjectBody, response: { 201: Project, ...errors } },
    }, async (req, reply) => reply.code(201).send(await service.create(req.body)));

    app.get('/v1/projects/:id', {
      config: { access: { model: 'projects', action: 'read' } },
      schema: { tags, summary: 'Get a project with its counts', params: IdParams, response: { 200: ProjectDocument, ...errors } },
    }, (req) => service.document(req.params.id));

    app.patch('/v1/projects/:id', {
      config: { access: { model: 'projects', action: 'update' } },
      schema: { tags, summary: 'Update a project', params: IdParams, body: PatchProjectBody, response: { 200: ProjectDocument, ...errors } },
    }, (req) => service.update(req.params.id, req.body));

    app.delete('/v1/projects/:id', {
      config: { access: { model: 'projects', action: 'delete' } },
      schema: { tags, summary: 'Delete a project with its sources, runs and knowledge', params: IdParams, response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      await service.remove(req.params.id);
      return reply.code(204).send(null);
    });
  };
}
