import type { FastifyRequest } from 'fastify';
import mercurius, { type IResolvers, type MercuriusLoaders } from 'mercurius';
import Type, { type Static } from 'typebox';
import type { Principal } from '../../kernel/auth/principal.js';
import type { ConfigSection } from '../../kernel/config/load.js';
import { AppError } from '../../kernel/errors/app-error.js';
import type { App } from '../../kernel/http/server.js';
import type { ModelDefinition } from '../content/models.js';
import { parseSort, whereFromObject } from '../content/query.js';
import type { ContentService } from '../content/service.js';
import type { FileService } from '../files/service.js';
import { queryCost } from './cost.js';
import { buildSchema, names, typeName } from './schema.js';

export const GraphqlConfigSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: true }),
    maxDepth: Type.Integer({ minimum: 1, default: 8 }),
    maxCost: Type.Integer({ minimum: 1, default: 5000 }),
  },
  { additionalProperties: false, default: {} },
);
export type GraphqlConfig = Static<typeof GraphqlConfigSchema>;
export const graphqlConfigSection: ConfigSection = {
  key: 'graphql',
  schema: GraphqlConfigSchema,
  env: {
    QUARRY_GRAPHQL_ENABLED: { path: 'graphql.enabled', type: 'boolean' },
    QUARRY_GRAPHQL_MAX_DEPTH: { path: 'graphql.maxDepth', type: 'number' },
    QUARRY_GRAPHQL_MAX_COST: { path: 'graphql.maxCost', type: 'number' },
  },
};

interface Ctx {
  principal: Principal | null;
}

/** AppErrors keep their code (and field details) in `extensions`, as GraphQL clients expect. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError)
      throw new mercurius.ErrorWithProps(err.message, { code: err.code, ...(err.details ? { details: err.details } : {}) }, err.status);
    throw err;
  }
}

type Args = Record<string, unknown>;

function modelResolvers(m: ModelDefinition, content: ContentService) {
  const n = names(m);
  const query = {
    [n.list]: (_: unknown, args: Args, ctx: Ctx) =>
      guarded(async () => {
        const limit = (args.limit as number | null) ?? 20;
        const offset = (args.offset as number | null) ?? 0;
        if (limit < 1 || limit > 100) throw new AppError('invalid_query', 'limit must be between 1 and 100', { details: [{ field: 'limit', message: 'must be between 1 and 100' }] });
        if (offset < 0) throw new AppError('invalid_query', 'offset must be 0 or more', { details: [{ field: 'offset', message: 'must be 0 or more' }] });
        const where = whereFromObject(m, args.where as never);
        const sort = parseSort(m, args.sort as string[] | null);
        const { rows } = await content.query(ctx.principal, m.name, { where, sort, limit, offset });
        return {
          nodes: rows.slice(0, limit),
          totalCount: () => content.count(m.name, where),
          pageInfo: { hasNextPage: rows.length > limit, hasPreviousPage: offset > 0, limit, offset },
        };
      }),
    [n.one]: (_: unknown, args: Args, ctx: Ctx) =>
      guarded(async () => {
        try {
          return await content.get(ctx.principal, m.name, args.id as string);
        } catch (err) {
          if (err instanceof AppError && err.code === 'record_not_found') return null;
          throw err;
        }
      }),
  };
  const mutation = {
    [n.create]: (_: unknown, args: Args, ctx: Ctx) => guarded(() => content.create(ctx.principal, m.name, { ...(args.data as object) })),
    [n.update]: (_: unknown, args: Args, ctx: Ctx) => guarded(() => content.update(ctx.principal, m.name, args.id as string, { ...(args.data as object) })),
    [n.delete]: (_: unknown, args: Args, ctx: Ctx) => guarded(() => content.remove(ctx.principal, m.name, args.id as string)),
  };
  return { query, mutation };
}

/** Relations are batched per request (mercurius loaders): one query per relation field, not per record. */
function relationLoaders(models: ModelDefinition[], content: ContentService, files: FileService): MercuriusLoaders {
  const loaders: MercuriusLoaders = {};
  for (const m of models) {
    const relations = m.fields.filter((f) => f.type === 'relation');
    if (!relations.length) continue;
    const byField: Record<string, (queries: Array<{ obj: Record<string, unknown> }>, ctx: Ctx) => Promise<unknown[]>> = {};
    for (const f of relations)
      byField[f.name] = async (queries, ctx) => {
        const ids = queries.map((q) => q.obj[f.name]).filter((v): v is string => typeof v === 'string');
        let found: Map<string, unknown>;
        if (f.to === 'user') found = new Map((await content.usersByIds(ids)).map((u) => [u.id, u]));
        else if (f.to === 'file') {
          const map = await files.getMany(ctx.principal, ids);
          found = new Map([...map].map(([id, file]) => [id, { ...file, thumbnails: Object.entries(file.thumbnails).map(([name, t]) => ({ name, ...t })) }]));
        } else found = await content.getMany(ctx.principal, f.to!, ids);
        return queries.map((q) => found.get(q.obj[f.name] as string) ?? null);
      };
    loaders[typeName(m)] = byField as never;
  }
  return loaders;
}

export function graphqlRoutes(content: ContentService, files: FileService, settings: GraphqlConfig) {
  return async (app: App) => {
    if (!settings.enabled) return;
    const Query: Record<string, unknown> = {};
    const Mutation: Record<string, unknown> = {};
    for (const m of content.models) {
      const r = modelResolvers(m, content);
      Object.assign(Query, r.query);
      Object.assign(Mutation, r.mutation);
    }
    await app.register(mercurius, {
      schema: buildSchema(content.models),
      resolvers: { Query, Mutation } as IResolvers,
      loaders: relationLoaders(content.models, content, files),
      path: '/graphql',
      graphiql: false,
      // Cookie sessions: refuse requests a cross-site form or simple fetch could send.
      csrfPrevention: true,
      queryDepth: settings.maxDepth,
      context: (request: FastifyRequest) => ({ principal: request.principal }),
      // The kernel guard authenticates and rate-limits; resolvers ask the content policy.
      additionalRouteOptions: { config: { access: 'public' }, schema: { hide: true } },
    });
    app.graphql.addHook('preExecution', async (_schema, document, _context, variables) => {
      const cost = queryCost(document, variables ?? {});
      if (cost > settings.maxCost)
        throw new mercurius.ErrorWithProps(`Query cost ${cost} exceeds the limit of ${settings.maxCost}; ask for fewer items or fields`, { code: 'query_too_complex' }, 400);
    });
  };
}
