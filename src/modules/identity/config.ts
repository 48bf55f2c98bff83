import Type, { type Static } from 'typebox';
import type { ConfigSection } from '../../kernel/config/load.js';
import type { EnvBinding } from '../../kernel/config/core-schema.js';
import type { Config } from '../../kernel/config/load.js';

const EmailProvider = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    host: Type.String({ default: 'localhost' }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 587 }),
    user: Type.Optional(Type.String()),
    pass: Type.Optional(Type.String()),
    from: Type.String({ default: 'Quarry <no-reply@localhost>' }),
    secure: Type.Boolean({ default: false, description: 'TLS from the first byte (port 465); otherwise STARTTLS when offered' }),
  },
  { default: {}, additionalProperties: false },
);

const Url = Type.String({ pattern: '^https?://' });
/** `codehost` speaks GitHub's endpoints; a provider with an `issuer` is generic OpenID Connect. */
const OAuthProvider = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    type: Type.Optional(Type.Enum(['codehost', 'oidc'])),
    clientId: Type.Optional(Type.String()),
    clientSecret: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    authorizeUrl: Type.Optional(Url),
    tokenUrl: Type.Optional(Url),
    userUrl: Type.Optional(Url),
    emailsUrl: Type.Optional(Url),
    issuer: Type.Optional(Url),
    allowSignup: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

const SessionSettings = Type.Object(
  {
    strategy: Type.Enum(['jwt', 'database'], { default: 'database' }),
    maxAge: Type.Integer({ minimum: 60, default: 604_800 }),
    updateAge: Type.Integer({ minimum: 0, default: 86_400 }),
    cookie: Type.Object(
      {
        secure: Type.Optional(Type.Boolean({ description: 'Default: true when env is production' })),
        httpOnly: Type.Boolean({ default: true }),
        sameSite: Type.Enum(['lax', 'strict', 'none'], { default: 'lax' }),
        path: Type.String({ default: '/' }),
        domain: Type.Optional(Type.String()),
      },
      { default: {}, additionalProperties: false },
    ),
  },
  { default: {}, additionalProperties: false },
);

const BruteForceSettings = Type.Object(
  {
    freeRetries: Type.Integer({ minimum: 0, default: 5 }),
    minWait: Type.Integer({ minimum: 1000, default: 300_000 }),
    maxWait: Type.Integer({ minimum: 1000, default: 900_000 }),
    failuresBeforeBrute: Type.Integer({ minimum: 0, default: 5 }),
  },
  { default: {}, additionalProperties: false },
);

export const AuthSettingsSchema = Type.Object(
  {
    jwt: Type.Optional(Type.Unknown({ description: 'Validated by the core schema' })),
    providers: Type.Object({ email: EmailProvider }, { default: {}, additionalProperties: OAuthProvider }),
    session: SessionSettings,
    bruteForce: BruteForceSettings,
  },
  { additionalProperties: false },
);

export const CorsSettingsSchema = Type.Object(
  {
    origin: Type.Array(Type.String({ pattern: '^https?://[^/]+$' }), { default: [] }),
    credentials: Type.Boolean({ default: true }),
    methods: Type.Array(Type.String(), { default: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] }),
    allowedHeaders: Type.Array(Type.String(), { default: ['Authorization', 'Content-Type'] }),
  },
  { additionalProperties: false },
);

export type EmailProviderSettings = Static<typeof EmailProvider>;
export type OAuthProviderSettings = Static<typeof OAuthProvider>;
export type SessionSettings = Static<typeof SessionSettings>;
export type BruteForceSettings = Static<typeof BruteForceSettings>;
export interface AuthSettings {
  providers: { email: EmailProviderSettings } & Record<string, OAuthProviderSettings | EmailProviderSettings>;
  session: SessionSettings;
  bruteForce: BruteForceSettings;
}

const env = (path: string, type: EnvBinding['type'], secret = false): EnvBinding => ({ path, type, ...(secret ? { secret } : {}) });

const providerEnv = (prefix: string, name: string): Record<string, EnvBinding> => ({
  [`${prefix}_ENABLED`]: env(`auth.providers.${name}.enabled`, 'boolean'),
  [`${prefix}_CLIENT_ID`]: env(`auth.providers.${name}.clientId`, 'string'),
  [`${prefix}_CLIENT_SECRET`]: env(`auth.providers.${name}.clientSecret`, 'string', true),
  [`${prefix}_SCOPE`]: env(`auth.providers.${name}.scope`, 'string'),
  [`${prefix}_ALLOW_SIGNUP`]: env(`auth.providers.${name}.allowSignup`, 'boolean'),
});

export const authSection: ConfigSection = {
  key: 'auth',
  schema: AuthSettingsSchema,
  env: {
    QUARRY_SMTP_ENABLED: env('auth.providers.email.enabled', 'boolean'),
    QUARRY_SMTP_HOST: env('auth.providers.email.host', 'string'),
    QUARRY_SMTP_PORT: env('auth.providers.email.port', 'number'),
    QUARRY_SMTP_USER: env('auth.providers.email.user', 'string'),
    QUARRY_SMTP_PASS: env('auth.providers.email.pass', 'string', true),
    QUARRY_SMTP_FROM: env('auth.providers.email.from', 'string'),
    QUARRY_SMTP_SECURE: env('auth.providers.email.secure', 'boolean'),
    ...providerEnv('QUARRY_CODEHOST', 'codehost'),
    QUARRY_CODEHOST_AUTHORIZE_URL: env('auth.providers.codehost.authorizeUrl', 'string'),
    QUARRY_CODEHOST_TOKEN_URL: env('auth.providers.codehost.tokenUrl', 'string'),
    QUARRY_CODEHOST_USER_URL: env('auth.providers.codehost.userUrl', 'string'),
    QUARRY_CODEHOST_EMAILS_URL: env('auth.providers.codehost.emailsUrl', 'string'),
    ...providerEnv('QUARRY_OIDC', 'oidc'),
    QUARRY_OIDC_ISSUER: env('auth.providers.oidc.issuer', 'string'),
    QUARRY_SESSION_STRATEGY: env('auth.session.strategy', 'string'),
    QUARRY_SESSION_MAX_AGE: env('auth.session.maxAge', 'number'),
    QUARRY_SESSION_UPDATE_AGE: env('auth.session.updateAge', 'number'),
    QUARRY_SESSION_COOKIE_SECURE: env('auth.session.cookie.secure', 'boolean'),
    QUARRY_SESSION_COOKIE_HTTP_ONLY: env('auth.session.cookie.httpOnly', 'boolean'),
    QUARRY_SESSION_COOKIE_SAME_SITE: env('auth.session.cookie.sameSite', 'string'),
    QUARRY_SESSION_COOKIE_PATH: env('auth.session.cookie.path', 'string'),
    QUARRY_SESSION_COOKIE_DOMAIN: env('auth.session.cookie.domain', 'string'),
    QUARRY_BRUTE_FORCE_FREE_RETRIES: env('auth.bruteForce.freeRetries', 'number'),
    QUARRY_BRUTE_FORCE_MIN_WAIT: env('auth.bruteForce.minWait', 'number'),
    QUARRY_BRUTE_FORCE_MAX_WAIT: env('auth.bruteForce.maxWait', 'number'),
    QUARRY_BRUTE_FORCE_FAILURES_BEFORE_BRUTE: env('auth.bruteForce.failuresBeforeBrute', 'number'),
  },
};

export const corsSection: ConfigSection = {
  key: 'cors',
  schema: CorsSettingsSchema,
  env: {
    QUARRY_CORS_ORIGIN: env('cors.origin', 'list'),
    QUARRY_CORS_CREDENTIALS: env('cors.credentials', 'boolean'),
    QUARRY_CORS_METHODS: env('cors.methods', 'list'),
    QUARRY_CORS_ALLOWED_HEADERS: env('cors.allowedHeaders', 'list'),
  },
};

export const authSettings = (config: Config) => config.auth as unknown as AuthSettings;
