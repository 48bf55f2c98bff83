import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Router from 'find-my-way';
import { AppError, type ErrorDetail } from '../errors/app-error.js';
import type { ErrorCode } from '../errors/codes.js';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_INVALID_TYPE: 'validation_failed',
};

function describeIssue(issue: ValidationIssue, where: string): ErrorDetail {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const join = (...parts: unknown[]) => parts.filter((p) => p !== '' && p !== undefined).join('.');
  if (issue.keyword === 'required')
    return { field: join(path, issue.params.missingProperty), message: 'is required' };
  if (issue.keyword === 'additionalProperties')
    return { field: join(path, issue.params.additionalProperty), message: 'is not a known field' };
  return { field: path || where, message: issue.message ?? 'is invalid' };
}

export function toAppError(err: FastifyError & { validation?: ValidationIssue[]; validationContext?: string }): AppError {
  if (err instanceof AppError) return err;
  if (err.validation) {
    const where = err.validationContext ?? 'body';
    const details = err.validation.map((v) => describeIssue(v, where));
    const first = details[0];
    const message = first ? `${where === 'body' ? '' : `${where} `}${first.field} ${first.message}`.trim() : 'The request is not valid';
    return new AppError(where === 'querystring' ? 'invalid_query' : 'validation_failed', message, { details });
  }
  const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (mapped) return new AppError(mapped, mapped === 'invalid_json' ? 'The request body is not valid JSON' : err.message);
  if (err instanceof SyntaxError && err.statusCode === 400) return new AppError('invalid_json');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
    return new AppError(err.statusCode === 404 ? 'not_found' : 'validation_failed', err.message);
  return new AppError('internal_error', undefined, { cause: err });
}

export function sendError(reply: FastifyReply, error: AppError) {
  const body: { error: { code: string; message: string; details?: ErrorDetail[] } } = {
    error: { code: error.code, message: error.message },
  };
  if (error.details) body.error.details = error.details;
  if (error.headers) reply.headers(error.headers);
  if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer');
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One error shape for every failure, 404 and 405 included. */
export function installErrorHandling(app: FastifyInstance) {
  // Fastify answers 404 for a known path with the wrong method; a shadow router tells the two apart.
  const known = Router();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      if ((METHODS as readonly string[]).includes(method) && !known.hasRoute(method as 'GET', route.url))
        known.on(method as 'GET', route.url, () => {});
  });

  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const error = toAppError(err);
    if (error.status >= 500) request.log.error({ err }, 'request failed');
    return sendError(reply, error);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => known.find(m, path));
    if (allowed.length) {
      reply.header('Allow', allowed.join(', '));
      return sendError(reply, new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`));
    }
    return sendError(reply, new AppError('route_not_found', `No route ${request.method} ${path}`));
  });
}
