import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can, type Principal } from '../auth/principal.js';
import type { CredentialRegistry } from '../auth/credentials.js';
import type { CoreConfig } from '../config/core-schema.js';
import { AppError } from '../errors/app-error.js';
import type { CounterStore } from '../ratelimit/store.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface GuardOptions {
  config: CoreConfig & { cors?: { origin?: unknown } };
  credentials: CredentialRegistry;
  counters: CounterStore;
}

function limitFor(principal: Principal | null, config: CoreConfig['rateLimit']) {
  if (!principal) return { key: null, max: config.max, windowMs: config.windowMs };
  const own = principal.rateLimit;
  return {
    key: `${principal.kind}:${principal.id}`,
    max: own?.requests ?? config.maxAuthenticated,
    windowMs: own?.windowMs ?? config.windowMs,
  };
}

function originAllowed(request: FastifyRequest, config: GuardOptions['config']): boolean {
  const origin = request.headers.origin ?? (request.headers.referer ? safeOrigin(request.headers.referer) : undefined);
  if (!origin) return false;
  const own = `${request.protocol}://${request.host}`;
  const trusted = [own];
  if (config.server.publicUrl) trusted.push(safeOrigin(config.server.publicUrl) ?? '');
  const cors = config.cors?.origin;
  if (Array.isArray(cors)) trusted.push(...cors.map(String));
  return trusted.includes(origin);
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Runs before routing work: HTTPS policy, then credentials, then the rate limit (so failed
 * authentication is counted against the caller's IP), then the route's access rule.
 */
export function installGuard(app: FastifyInstance, { config, credentials, counters }: GuardOptions) {
  const requireHttps = config.server.requireHttps ?? config.env === 'production';
  const rl = config.rateLimit;

  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const routeConfig = request.routeOptions.config ?? {};
    if (routeConfig.bare) return;
    if (requireHttps && request.protocol !== 'https')
      throw new AppError('https_required', 'This service only accepts HTTPS; use https:// (or send X-Forwarded-Proto: https through a trusted proxy)');

    const verified = await credentials.verify(request);
    const principal = verified && 'principal' in verified ? verified.principal : null;
    request.principal = principal;

    if (rl.enabled) {
      const limit = limitFor(principal, rl);
      const key = limit.key ?? `ip:${request.ip}`;
      const { count, resetMs } = await counters.hit(key, limit.windowMs);
      const remaining = Math.max(0, limit.max - count);
      const resetSeconds = Math.max(0, Math.ceil(resetMs / 1000));
      reply.header('X-RateLimit-Limit', limit.max);
      reply.header('X-RateLimit-Remaining', remaining);
      reply.header('X-RateLimit-Reset', resetSeconds);
      if (rl.standardHeaders) {
        reply.header('RateLimit-Limit', limit.max);
        reply.header('RateLimit-Remaining', remaining);
        reply.header('RateLimit-Reset', resetSeconds);
        reply.header('RateLimit-Policy', `${limit.max};w=${Math.round(limit.windowMs / 1000)}`);
      }
      if (count > limit.max)
        throw new AppError('rate_limited', `Rate limit of ${limit.max} requests per ${Math.round(limit.windowMs / 1000)} s exceeded; retry in ${resetSeconds} s`, {
          headers: { 'Retry-After': String(resetSeconds) },
        });
      if (rl.skipSuccessfulRequests) (request as FastifyRequest & { rateLimitKey?: string }).rateLimitKey = key;
    }

    if (verified && 'invalid' in verified) throw new AppError('unauthorized', verified.invalid);
    const access = routeConfig.access ?? 'public';
    if (access === 'public') return;
    if (!principal) throw new AppError('unauthorized', 'Send "Authorization: Bearer <API key or token>"');
    if (principal.via === 'cookie' && !SAFE_METHODS.has(request.method) && !originAllowed(request, config))
      throw new AppError('forbidden', 'Cross-site request refused: the Origin header does not match this site');
    if (access !== 'authenticated' && !can(principal, access.model, access.action))
      throw new AppError('forbidden', `This credential may not ${access.action} ${access.model}`);
  });

  if (rl.enabled && rl.skipSuccessfulRequests)
    app.addHook('onResponse', async (request, reply) => {
      const key = (request as FastifyRequest & { rateLimitKey?: string }).rateLimitKey;
      if (key && reply.statusCode < 400) await counters.undo(key);
    });
}

/** For handlers behind `authenticated` or a model rule: the principal is always there. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthorized');
  return request.principal;
}
