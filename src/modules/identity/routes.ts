import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../kernel/config/load.js';
import { AppError } from '../../kernel/errors/app-error.js';
import { principalOf } from '../../kernel/http/guard.js';
import { ErrorResponse } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import { User } from '../users/schemas.js';
import type { UserService } from '../users/service.js';
import { safeRedirect, type OAuthService } from './oauth.js';
import type { PasswordResetService } from './reset.js';
import { AuthorizeQuery, CallbackQuery, InviteBody, Ok, ProviderParams, ResetConfirmBody, ResetRequestBody, SessionResult, SignInBody, SignInResult } from './schemas.js';
import type { IdentityService } from './service.js';
import type { SessionService } from './sessions.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };
const tags = ['auth'];

export interface IdentityDeps {
  config: Config;
  identity: IdentityService;
  users: UserService;
  sessions: SessionService;
  resets: PasswordResetService;
  oauth: OAuthService;
}

/**
 * Where links and callbacks point. Without `server.publicUrl` the request's own origin is used
 * outside production only: a forged Host header must never choose where reset links lead.
 */
function siteUrl(config: Config, request: FastifyRequest): string {
  if (config.server.publicUrl) return config.server.publicUrl.replace(/\/$/, '');
  if (config.env === 'production') throw new AppError('service_unavailable', 'Set QUARRY_PUBLIC_URL (server.publicUrl) to use links and OAuth callbacks');
  return `${request.protocol}://${request.host}`;
}

export function identityRoutes(deps: IdentityDeps) {
  const { config, identity, users, sessions, resets, oauth } = deps;
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onSend', async (request, reply, payload) => {
      sessions.applyRenewal(request, reply);
      return payload;
    });

    app.post('/api/auth/invite', {
      config: { access: 'public' },
      schema: { tags, summary: 'Invite a user (the first call on an empty site creates the super_admin)', body: InviteBody, response: { 201: SignInResult, ...errors } },
    }, async (req, reply) => reply.code(201).send(await identity.invite(req.principal, req.body)));

    app.post('/api/auth/signin', {
      config: { access: 'public' },
      schema: { tags, summary: 'Sign in with e-mail and password', security: [], body: SignInBody, response: { 200: SignInResult, ...errors } },
    }, (req) => identity.signIn(req.body.email, req.body.password, req.ip));

    app.post('/api/auth/reset-password', {
      config: { access: 'public' },
      schema: { tags, summary: 'Mail a password reset link (answers the same whether or not the address exists)', security: [], body: ResetRequestBody, response: { 202: Ok, ...errors } },
    }, async (req, reply) => {
      resets.request(req.body.email, siteUrl(config, req));
      return reply.code(202).send({ ok: true });
    });

    app.post('/api/auth/reset-password/confirm', {
      config: { access: 'public' },
      schema: { tags, summary: 'Set a new password with a reset token; ends every session and token of the user', security: [], body: ResetConfirmBody, response: { 200: Ok, ...errors } },
    }, async (req) => {
      await resets.confirm(req.body.token, req.body.password);
      return { ok: true };
    });

    app.post('/api/auth/session', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Turn a bearer JWT into a session cookie', response: { 201: SessionResult, ...errors } },
    }, async (req, reply) => {
      const principal = principalOf(req);
      if (principal.kind !== 'user' || principal.via !== 'bearer') throw new AppError('forbidden', 'Send a user JWT as "Authorization: Bearer <token>" to start a session');
      const session = await sessions.start(principal.id);
      sessions.setCookie(reply, session);
      return reply.code(201).send({ session: { expiresAt: session.expiresAt.toISOString() }, user: await users.get(principal.id) });
    });

    app.delete('/api/auth/session', {
      config: { access: 'public' },
      schema: { tags, summary: 'Sign out: end the session and clear the cookie', security: [], response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      await sessions.end(req);
      sessions.clearCookie(reply);
      return reply.code(204).send(null);
    });

    app.get('/api/auth/me', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'The signed-in user', response: { 200: User, ...errors } },
    }, async (req) => {
      const principal = principalOf(req);
      if (principal.kind !== 'user') throw new AppError('forbidden', 'An API key is not a user; /api/auth/me needs a user token or session');
      return users.get(principal.id);
    });

    app.get('/api/auth/:provider', {
      config: { access: 'public' },
      schema: { tags, summary: 'Start OAuth sign-in: redirects to the provider', security: [], params: ProviderParams, querystring: AuthorizeQuery, response: { 302: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      const redirect = safeRedirect(req.query.redirect);
      const url = await oauth.authorizeUrl(req.params.provider, callbackUrl(req, req.params.provider), redirect);
      return reply.redirect(url, 302);
    });

    app.get('/api/auth/:provider/callback', {
      config: { access: 'public' },
      schema: { tags, summary: 'OAuth callback: signs in (JSON), or sets the session cookie and redirects', security: [], params: ProviderParams, querystring: CallbackQuery, response: { 200: SignInResult, 302: { type: 'null' }, ...errors, 502: ErrorResponse } },
    }, async (req, reply) => {
      const { user, redirect } = await oauth.callback(req.params.provider, req.query, callbackUrl(req, req.params.provider));
      if (!redirect) return identity.result(user);
      sessions.setCookie(reply, await sessions.start(user.id));
      return reply.redirect(redirect, 302);
    });

    function callbackUrl(req: FastifyRequest, provider: string) {
      return `${siteUrl(config, req)}/api/auth/${encodeURIComponent(provider)}/callback`;
    }
  };
}
