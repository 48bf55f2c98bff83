import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { compileValidator } from './validator.js';
import { installErrorHandling } from './error-handler.js';
import { installGuard } from './guard.js';
import './types.js';

export type App = FastifyInstance;
interface CorsSettings {
  origin?: string[];
  credentials?: boolean;
  methods?: string[];
  allowedHeaders?: string[];
}
export type RoutePlugin = (app: App) => Promise<void> | void;

/** Builds the HTTP server: kernel behaviour first, then every module's routes. */
export async function createHttpServer(ctx: AppContext, plugins: RoutePlugin[]): Promise<App> {
  const { config } = ctx;
  const tls = config.server.tls;
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: config.server.bodyLimit,
    trustProxy: config.server.trustProxy as boolean | string,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    ...(tls ? { https: { cert: readFileSync(tls.cert), key: readFileSync(tls.key) } } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // JSON only unless a module registers more (multipart for uploads): anything else is a clear 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(compileValidator);
  installErrorHandling(app);
  // Both hook in before the guard: credential verifiers read cookies, and CORS headers (and
  // preflight answers) must be there even when the guard refuses the request.
  await app.register(cookie);
  const corsSettings = (config as { cors?: CorsSettings }).cors;
  const allowedOrigins = new Set(corsSettings?.origin ?? []);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !!origin && allowedOrigins.has(origin)),
    credentials: corsSettings?.credentials ?? true,
    ...(corsSettings?.methods ? { methods: corsSettings.methods } : {}),
    ...(corsSettings?.allowedHeaders ? { allowedHeaders: corsSettings.allowedHeaders } : {}),
  });
  installGuard(app, { config, credentials: ctx.credentials, counters: ctx.counters });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quarry API',
        version: '1',
        description: 'Knowledge ingestion (`/v1`) and content (`/api`) surfaces of Quarry.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`qk_…`) or a JWT' },
          session: { type: 'apiKey', in: 'cookie', name: 'session', description: 'The session cookie from POST /api/auth/session (state-changing calls need a same-site Origin)' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.addHook('onRoute', (route) => {
    // Swagger UI's own assets carry no access rule: they must not count against anyone's limit.
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), bare: true };
  });

  app.get('/health', { config: { bare: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/ready', { config: { bare: true }, schema: { hide: true } }, async (_req, reply) => {
    try {
      await ctx.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ error: { code: 'service_unavailable', message: 'The database is not reachable' } });
    }
  });
  app.get(
    '/v1/openapi.json',
    { config: { access: 'public' }, schema: { hide: true, response: { 200: Type.Unknown() } } },
    async () => app.swagger(),
  );

  for (const plugin of plugins) await plugin(app);
  return app;
}
