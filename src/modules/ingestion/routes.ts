import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { principalOf } from '../../kernel/http/guard.js';
import { ErrorResponse, ListEnvelope } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import { PageOnlyQuery, Run, RunError, RunParams, SourceRunsParams, TriggerBody, TriggerResponse } from './schemas.js';
import type { IngestionService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const tags = ['ingestion'];

export function ingestionRoutes(service: IngestionService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.post('/v1/trigger/ingestion', {
      config: { access: { model: 'ingestion', action: 'create' } },
      schema: { tags, summary: 'Queue an ingestion run for a source', body: TriggerBody, response: { 201: TriggerResponse, ...errors } },
    }, async (req, reply) => {
      const run = await service.trigger(req.body.sourceId, principalOf(req).id);
      return reply
        .code(201)
        .header('Location', `/v1/runs/${run.runId}`)
        .send({ runId: run.runId, sourceId: run.sourceId, status: 'queued' as const, queuedAt: run.queuedAt });
    });

    app.get('/v1/runs/:runId', {
      config: { access: { model: 'ingestion', action: 'read' } },
      schema: { tags, summary: 'Get a run with its progress', params: RunParams, response: { 200: Run, ...errors } },
    }, (req) => service.getRun(req.params.runId));

    app.get('/v1/sources/:id/runs', {
      config: { access: { model: 'ingestion', action: 'read' } },
      schema: { tags, summary: 'List the runs of a source, newest first', params: SourceRunsParams, querystring: PageOnlyQuery, response: { 200: ListEnvelope(Run), ...errors } },
    }, (req) => service.listRuns(req.params.id, req.query.page, req.query.limit));

    app.post('/v1/runs/:runId/cancel', {
      config: { access: { model: 'ingestion', action: 'update' } },
      schema: { tags, summary: 'Cancel a queued or running run', params: RunParams, response: { 200: Run, ...errors } },
    }, (req) => service.cancel(req.params.runId, principalOf(req).id));

    app.get('/v1/runs/:runId/errors', {
      config: { access: { model: 'ingestion', action: 'read' } },
      schema: { tags, summary: 'Failed URLs of a run, with status and reason', params: RunParams, querystring: PageOnlyQuery, response: { 200: ListEnvelope(RunError), ...errors } },
    }, (req) => service.listErrors(req.params.runId, req.query.page, req.query.limit));
  };
}
