import { createHash } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { AppError } from '../../kernel/errors/app-error.js';
import type { User } from '../users/schemas.js';
import type { UserService } from '../users/service.js';
import type { OAuthProviderSettings } from './config.js';
import { randomToken, sha256 } from './crypto.js';
import type { IdentityRepository } from './repository.js';

const STATE_TTL_MS = 10 * 60_000;
const TIMEOUT_MS = 10_000;

interface Endpoints {
  authorize: string;
  token: string;
  userinfo: string;
  jwks?: JWTVerifyGetKey;
  issuer?: string;
}

/** `/admin/...`-style paths on this site only: no scheme, no `//host`, no backslashes. */
export function safeRedirect(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\s\u0000-\u001f]/.test(value))
    throw new AppError('invalid_redirect', 'redirect must be a path on this site, such as /admin/');
  const parsed = new URL(value, 'http://same.invalid');
  if (parsed.origin !== 'http://same.invalid') throw new AppError('invalid_redirect', 'redirect must be a path on this site, such as /admin/');
  return parsed.pathname + parsed.search + parsed.hash;
}

const failed = (message: string) => new AppError('oauth_failed', message);

async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(url, { ...init, headers: { accept: 'application/json', 'user-agent': 'quarry', ...(init.headers ?? {}) }, signal: AbortSignal.timeout(TIMEOUT_MS) }).catch((err: Error) => {
    throw failed(`The identity provider is unreachable: ${err.message}`);
  });
  if (!res.ok) throw failed(`The identity provider answered ${res.status} at ${new URL(url).pathname}`);
  return res.json().catch(() => {
    throw failed('The identity provider answered something other than JSON');
  });
}

/**
 * OAuth 2.0 authorization code flow with PKCE (S256). State, verifier, nonce and the redirect are
 * kept server-side (hashed state, ten minutes) so any node can finish a flow another began.
 * `codehost` speaks GitHub's API (`/user`, `/user/emails`); a provider with an `issuer` is OpenID
 * Connect with discovery, and its e-mail must carry `email_verified: true`.
 */
export class OAuthService {
  private readonly discovered = new Map<string, Promise<Endpoints>>();

  constructor(
    private readonly providers: Record<string, OAuthProviderSettings>,
    private readonly repo: IdentityRepository,
    private readonly users: UserService,
  ) {}

  private provider(name: string): OAuthProviderSettings {
    const p = Object.hasOwn(this.providers, name) ? this.providers[name] : undefined;
    if (!p?.enabled || !p.clientId) throw new AppError('provider_not_found', `No sign-in provider "${name}" is enabled`);
    return p;
  }

  private isOidc = (p: OAuthProviderSettings) => (p.type ?? (p.issuer ? 'oidc' : 'codehost')) === 'oidc';

  private endpoints(name: string, p: OAuthProviderSettings): Promise<Endpoints> {
    if (!this.isOidc(p)) {
      if (!p.authorizeUrl || !p.tokenUrl || !p.userUrl) throw failed(`Provider ${name} needs authorizeUrl, tokenUrl and userUrl`);
      return Promise.resolve({ authorize: p.authorizeUrl, token: p.tokenUrl, userinfo: p.userUrl });
    }
    let found = this.discovered.get(name);
    if (!found) {
      found = (async () => {
        const issuer = (p.issuer ?? '').replace(/\/$/, '');
        const doc = (await fetchJson(`${issuer}/.well-known/openid-configuration`)) as Record<string, string>;
        if (!doc.authorization_endpoint || !doc.token_endpoint || !doc.userinfo_endpoint) throw failed('The OpenID discovery document lacks endpoints');
        return { authorize: doc.authorization_endpoint, token: doc.token_endpoint, userinfo: doc.userinfo_endpoint, issuer: doc.issuer ?? issuer, ...(doc.jwks_uri ? { jwks: createRemoteJWKSet(new URL(doc.jwks_uri)) } : {}) };
      })();
      found.catch(() => this.discovered.delete(name));
      this.discovered.set(name, found);
    }
    return found;
  }

  async authorizeUrl(name: string, callbackUrl: string, redirect: string | null): Promise<string> {
    const p = this.provider(name);
    const endpoints = await this.endpoints(name, p);
    const state = randomToken();
    const verifier = randomToken();
    const nonce = randomToken();
    await this.repo.insertOAuthState({ state_hash: sha256(state), provider: name, verifier, nonce, redirect, expires_at: new Date(Date.now() + STATE_TTL_MS).toISOString() });
    const url = new URL(endpoints.authorize);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', p.clientId!);
    url.searchParams.set('redirect_uri', callbackUrl);
    url.searchParams.set('scope', p.scope ?? (this.isOidc(p) ? 'openid email profile' : 'read:user user:email'));
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
    if (this.isOidc(p)) url.searchParams.set('nonce', nonce);
    return url.toString();
  }

  /** Exchanges the code and returns the linked (or newly created) user and where to send them. */
  async callback(name: string, query: { code?: string; state?: string; error?: string }, callbackUrl: string): Promise<{ user: User; redirect: string | null }> {
    const p = this.provider(name);
    const flow = query.state ? await this.repo.takeOAuthState(sha256(query.state), new Date().toISOString()) : undefined;
    if (!flow || flow.provider !== name) throw new AppError('invalid_state', 'The sign-in state is unknown, used or expired; start again');
    if (query.error || !query.code) throw failed(`The provider refused the sign-in${query.error ? `: ${query.error}` : ''}`);
    const endpoints = await this.endpoints(name, p);
    const tokens = (await fetchJson(endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: query.code, redirect_uri: callbackUrl, client_id: p.clientId!, client_secret: p.clientSecret ?? '', code_verifier: flow.verifier }),
    })) as { access_token?: string; id_token?: string };
    if (!tokens.access_token) throw failed('The provider issued no access token');
    const email = this.isOidc(p) ? await this.oidcEmail(p, endpoints, tokens, flow.nonce) : await this.codehostEmail(p, tokens.access_token);
    if (!email) throw new AppError('email_not_verified', 'The provider did not confirm a verified e-mail address for this account');
    const row = await this.users.findRowByEmail(email.address);
    if (row) return { user: await this.users.get(row.id), redirect: flow.redirect };
    if (!p.allowSignup) throw new AppError('signup_disabled', `No user has the e-mail ${email.address}, and sign-up through ${name} is off`);
    const user = await this.users.create({ email: email.address, name: (email.name || email.address.split('@')[0] || 'user').slice(0, 200), role: 'viewer' });
    return { user, redirect: flow.redirect };
  }

  private async codehostEmail(p: OAuthProviderSettings, accessToken: string) {
    const auth = { authorization: `Bearer ${accessToken}` };
    const profile = (await fetchJson(p.userUrl!, { headers: auth })) as { name?: string; login?: string };
    const emailsUrl = p.emailsUrl ?? `${p.userUrl!.replace(/\/$/, '')}/emails`;
    const emails = (await fetchJson(emailsUrl, { headers: auth })) as Array<{ email?: string; verified?: boolean; primary?: boolean }>;
    if (!Array.isArray(emails)) throw failed('The provider answered an e-mail list that is not a list');
    const verified = emails.filter((e) => e.verified === true && typeof e.email === 'string');
    const chosen = verified.find((e) => e.primary) ?? verified[0];
    return chosen ? { address: chosen.email!.toLowerCase(), name: profile.name ?? profile.login ?? '' } : null;
  }

  private async oidcEmail(p: OAuthProviderSettings, endpoints: Endpoints, tokens: { access_token?: string; id_token?: string }, nonce: string) {
    let claims: Record<string, unknown> = {};
    if (tokens.id_token && endpoints.jwks) {
      const { payload } = await jwtVerify(tokens.id_token, endpoints.jwks, { issuer: endpoints.issuer!, audience: p.clientId! }).catch(() => {
        throw failed('The ID token is not valid');
      });
      if (payload.nonce !== undefined && payload.nonce !== nonce) throw failed('The ID token nonce does not match');
      claims = payload;
    }
    const info = (await fetchJson(endpoints.userinfo, { headers: { authorization: `Bearer ${tokens.access_token}` } })) as Record<string, unknown>;
    if (claims.sub !== undefined && info.sub !== undefined && claims.sub !== info.sub) throw failed('The user info belongs to another subject');
    const merged = { ...claims, ...info };
    if (typeof merged.email !== 'string' || merged.email_verified !== true) return null;
    return { address: merged.email.toLowerCase(), name: typeof merged.name === 'string' ? merged.name : '' };
  }
}
