import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse, ListEnvelope } from '../../../kernel/http/pagination.js';
import type { App } from '../../../kernel/http/server.js';
import type { ProjectService } from '../../projects/service.js';
import type { SourceService } from '../../sources/service.js';
import { DocumentDetail, DocumentSummary, IdParams, ListDocumentsQuery, ProjectIdParams, SearchBody, SearchResponse } from './schemas.js';
import type { IndexService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export function indexRoutes(index: IndexService, projects: ProjectService, sources: SourceService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.post('/v1/projects/:projectId/search', {
      config: { access: { model: 'projects', action: 'read' } },
      schema: { tags: ['search'], summary: 'Search a project (hybrid, keyword or semantic)', params: ProjectIdParams, body: SearchBody, response: { 200: SearchResponse, ...errors } },
    }, async (req, reply) => {
      await projects.get(req.params.projectId);
      const result = await index.search(req.params.projectId, { ...req.body, mode: req.body.mode ?? 'hybrid', limit: req.body.limit ?? 10 });
      return reply.header('X-Search-Mode', result.mode).send(result);
    });

    app.get('/v1/sources/:id/documents', {
      config: { access: { model: 'sources', action: 'read' } },
      schema: { tags: ['documents'], summary: "List a source's documents", params: IdParams, querystring: ListDocumentsQuery, response: { 200: ListEnvelope(DocumentSummary), ...errors } },
    }, async (req) => {
      await sources.get(req.params.id);
      return index.listDocuments(req.params.id, req.query.page, req.query.limit);
    });

    app.get('/v1/documents/:id', {
      config: { access: { model: 'sources', action: 'read' } },
      schema: { tags: ['documents'], summary: 'Get a document with its extracted markdown', params: IdParams, response: { 200: DocumentDetail, ...errors } },
    }, (req) => index.getDocument(req.params.id));
  };
}
