import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { CredentialVerifier } from '../../kernel/auth/credentials.js';
import type { JwtService } from '../../kernel/auth/jwt.js';
import type { Principal } from '../../kernel/auth/principal.js';
import { newId } from '../../kernel/db/ids.js';
import type { UserService } from '../users/service.js';
import type { SessionSettings } from './config.js';
import { randomToken, sha256 } from './crypto.js';
import type { IdentityRepository } from './repository.js';

export const SESSION_COOKIE = 'session';

type RenewingRequest = FastifyRequest & { renewedSession?: { value: string; expiresAt: Date } };

/** What a cookie resolved to, plus a fresh cookie value when the session slid forward. */
interface Resolved {
  principal: Principal;
  renewed?: { value: string; expiresAt: Date };
}

/**
 * Browser sessions. `jwt`: the cookie is a signed token of type `session` (never accepted as a bearer
 * token). `database`: the cookie is an opaque random token whose hash is a row in `sessions`, so
 * signing out ends it everywhere. Both slide: a session older than `updateAge` is re-issued, and it
 * ends `maxAge` after its last renewal.
 */
export class SessionService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly users: UserService,
    private readonly jwt: JwtService,
    private readonly settings: SessionSettings,
    private readonly production: boolean,
  ) {}

  async start(userId: string): Promise<{ value: string; expiresAt: Date }> {
    const now = Date.now();
    const expiresAt = new Date(now + this.settings.maxAge * 1000);
    if (this.settings.strategy === 'jwt') {
      const { token } = await this.jwt.sign({ sub: userId, typ: 'session', sid: newId('ses'), iat_ms: now }, `${this.settings.maxAge}s`);
      return { value: token, expiresAt };
    }
    const value = randomToken();
    const at = new Date(now).toISOString();
    await this.repo.insertSession({ id: newId('ses'), token_hash: sha256(value), user_id: userId, created_at: at, renewed_at: at, expires_at: expiresAt.toISOString() });
    return { value, expiresAt };
  }

  async end(request: FastifyRequest) {
    const value = request.cookies[SESSION_COOKIE];
    if (value && this.settings.strategy === 'database') {
      const row = await this.repo.findSession(sha256(value));
      if (row) await this.repo.deleteSession(row.id);
    }
  }

  endAllOf = (userId: string) => this.repo.deleteSessionsOf(userId);

  setCookie(reply: FastifyReply, session: { value: string; expiresAt: Date }) {
    reply.setCookie(SESSION_COOKIE, session.value, { ...this.cookieOptions(), expires: session.expiresAt, maxAge: Math.max(0, Math.round((session.expiresAt.getTime() - Date.now()) / 1000)) });
  }

  clearCookie(reply: FastifyReply) {
    reply.clearCookie(SESSION_COOKIE, this.cookieOptions());
  }

  private cookieOptions(): CookieSerializeOptions {
    const c = this.settings.cookie;
    return { path: c.path, httpOnly: c.httpOnly, sameSite: c.sameSite, secure: c.secure ?? this.production, ...(c.domain ? { domain: c.domain } : {}) };
  }

  /**
   * The credential verifier for the `session` cookie. A bearer credential wins when both are sent.
   * A bad or expired cookie counts as no credential, so a stale cookie never blocks signing in again.
   */
  verifier(): CredentialVerifier {
    return async (request, bearer) => {
      if (bearer) return null;
      const value = request.cookies?.[SESSION_COOKIE];
      if (!value) return null;
      const resolved = await this.resolve(value);
      if (!resolved) return null;
      if (resolved.renewed) (request as RenewingRequest).renewedSession = resolved.renewed;
      return { principal: resolved.principal };
    };
  }

  /** Sends the renewed cookie with whatever answer the request gets. */
  applyRenewal(request: FastifyRequest, reply: FastifyReply) {
    const renewed = (request as RenewingRequest).renewedSession;
    if (renewed && !reply.getHeader('set-cookie')) this.setCookie(reply, renewed);
  }

  private async resolve(value: string): Promise<Resolved | null> {
    return this.settings.strategy === 'jwt' ? this.resolveJwt(value) : this.resolveRow(value);
  }

  private async resolveJwt(value: string): Promise<Resolved | null> {
    const claims = await this.jwt.verify(value, 'session');
    if (!claims) return null;
    const row = await this.users.findRow(claims.sub);
    const principal = row && this.users.principalFor(row, claims.iat, 'cookie', claims.iat_ms);
    if (!principal) return null;
    const issuedMs = typeof claims.iat_ms === 'number' ? claims.iat_ms : (claims.iat ?? 0) * 1000;
    if (Date.now() - issuedMs <= this.settings.updateAge * 1000) return { principal };
    return { principal, renewed: await this.start(claims.sub) };
  }

  private async resolveRow(value: string): Promise<Resolved | null> {
    const row = await this.repo.findSession(sha256(value));
    const now = Date.now();
    if (!row || Date.parse(row.expires_at) <= now) return null;
    const userRow = await this.users.findRow(row.user_id);
    // Sessions are deleted on password reset; the timestamp check also covers "sign out everywhere".
    const principal = userRow && this.users.principalFor(userRow, undefined, 'cookie', Date.parse(row.created_at));
    if (!principal) return null;
    principal.sessionId = row.id;
    if (now - Date.parse(row.renewed_at) <= this.settings.updateAge * 1000) return { principal };
    const expiresAt = new Date(now + this.settings.maxAge * 1000);
    await this.repo.renewSession(row.id, new Date(now).toISOString(), expiresAt.toISOString());
    return { principal, renewed: { value, expiresAt } };
  }
}
