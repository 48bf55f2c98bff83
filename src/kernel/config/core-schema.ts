import Type, { type Static } from 'typebox';

/** The settings every role needs. Modules add their own sections (see `ConfigSection`). */
export const CoreConfigSchema = Type.Object(
  {
    env: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
      default: 'development',
    }),
    logLevel: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
    dataDir: Type.String({ minLength: 1, default: './data' }),
    databaseUrl: Type.Optional(Type.String({ minLength: 1 })),
    databaseSchema: Type.Optional(Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$' })),
    redisUrl: Type.Optional(Type.String({ pattern: '^rediss?://' })),
    server: Type.Object(
      {
        port: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
        host: Type.String({ default: '0.0.0.0' }),
        publicUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
        bodyLimit: Type.Integer({ minimum: 1024, default: 1_048_576 }),
        trustProxy: Type.Union([Type.Boolean(), Type.String(), Type.Integer({ minimum: 0 })], { default: false }),
        requireHttps: Type.Optional(Type.Boolean()),
        tls: Type.Optional(Type.Object({ cert: Type.String(), key: Type.String() }, { additionalProperties: false })),
      },
      { default: {}, additionalProperties: false },
    ),
    auth: Type.Object(
      {
        jwt: Type.Object(
          {
            secret: Type.Optional(Type.String({ minLength: 1 })),
            algorithm: Type.Union([Type.Literal('HS256'), Type.Literal('HS384'), Type.Literal('HS512')], {
              default: 'HS256',
            }),
            expiresIn: Type.String({ pattern: '^\\d+\\s*(s|m|h|d|w)?$', default: '7d' }),
          },
          { default: {}, additionalProperties: false },
        ),
      },
      { default: {} },
    ),
    rateLimit: Type.Object(
      {
        enabled: Type.Boolean({ default: true }),
        windowMs: Type.Integer({ minimum: 1000, default: 900_000 }),
        max: Type.Integer({ minimum: 1, default: 100 }),
        maxAuthenticated: Type.Integer({ minimum: 1, default: 1000 }),
        skipSuccessfulRequests: Type.Boolean({ default: false }),
        standardHeaders: Type.Boolean({ default: false }),
      },
      { default: {}, additionalProperties: false },
    ),
  },
  { additionalProperties: true },
);

export type CoreConfig = Static<typeof CoreConfigSchema>;

/** How an environment variable maps onto a setting. `*_FILE` variants are read for every secret. */
export interface EnvBinding {
  path: string;
  type: 'string' | 'number' | 'boolean' | 'json' | 'list';
  secret?: boolean;
}

export const coreEnv: Record<string, EnvBinding> = {
  NODE_ENV: { path: 'env', type: 'string' },
  QUARRY_LOG_LEVEL: { path: 'logLevel', type: 'string' },
  QUARRY_DATA_DIR: { path: 'dataDir', type: 'string' },
  DATABASE_URL: { path: 'databaseUrl', type: 'string', secret: true },
  QUARRY_DATABASE_SCHEMA: { path: 'databaseSchema', type: 'string' },
  REDIS_URL: { path: 'redisUrl', type: 'string', secret: true },
  PORT: { path: 'server.port', type: 'number' },
  HOST: { path: 'server.host', type: 'string' },
  QUARRY_PUBLIC_URL: { path: 'server.publicUrl', type: 'string' },
  QUARRY_BODY_LIMIT: { path: 'server.bodyLimit', type: 'number' },
  QUARRY_TRUST_PROXY: { path: 'server.trustProxy', type: 'json' },
  QUARRY_REQUIRE_HTTPS: { path: 'server.requireHttps', type: 'boolean' },
  QUARRY_TLS_CERT: { path: 'server.tls.cert', type: 'string' },
  QUARRY_TLS_KEY: { path: 'server.tls.key', type: 'string', secret: true },
  QUARRY_JWT_SECRET: { path: 'auth.jwt.secret', type: 'string', secret: true },
  QUARRY_JWT_ALGORITHM: { path: 'auth.jwt.algorithm', type: 'string' },
  QUARRY_JWT_EXPIRES_IN: { path: 'auth.jwt.expiresIn', type: 'string' },
  QUARRY_RATE_LIMIT_ENABLED: { path: 'rateLimit.enabled', type: 'boolean' },
  QUARRY_RATE_LIMIT_WINDOW_MS: { path: 'rateLimit.windowMs', type: 'number' },
  QUARRY_RATE_LIMIT_MAX: { path: 'rateLimit.max', type: 'number' },
  QUARRY_RATE_LIMIT_MAX_AUTHENTICATED: { path: 'rateLimit.maxAuthenticated', type: 'number' },
  QUARRY_RATE_LIMIT_SKIP_SUCCESSFUL: { path: 'rateLimit.skipSuccessfulRequests', type: 'boolean' },
  QUARRY_RATE_LIMIT_STANDARD_HEADERS: { path: 'rateLimit.standardHeaders', type: 'boolean' },
};
