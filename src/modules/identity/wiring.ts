import type { AppContext } from '../../kernel/context.js';
import type { RoutePlugin } from '../../kernel/http/server.js';
import { userRoutes } from '../users/routes.js';
import type { UserService } from '../users/service.js';
import { BruteForceGuard } from './brute-force.js';
import { authSettings, type OAuthProviderSettings } from './config.js';
import { Mailer } from './mail.js';
import { OAuthService } from './oauth.js';
import { IdentityRepository } from './repository.js';
import { PasswordResetService } from './reset.js';
import { identityRoutes } from './routes.js';
import { IdentityService } from './service.js';
import { SessionService } from './sessions.js';

const PURGE_INTERVAL_MS = 3600_000;

export interface IdentityModule {
  routes: RoutePlugin[];
  services: { identity: IdentityService; sessions: SessionService; resets: PasswordResetService; oauth: OAuthService };
  startWorkers(): void;
}

/** Sign-in, sessions, password reset and OAuth. Registers the session-cookie credential verifier. */
export function createIdentity(ctx: AppContext, users: UserService): IdentityModule {
  const settings = authSettings(ctx.config);
  const repo = new IdentityRepository(ctx.db);
  const sessions = new SessionService(repo, users, ctx.jwt, settings.session, ctx.config.env === 'production');
  const identity = new IdentityService(users, new BruteForceGuard(ctx.counters, settings.bruteForce));
  const mailer = new Mailer(settings.providers.email);
  ctx.onClose(() => mailer.close());
  const resets = new PasswordResetService(repo, users, sessions, mailer, ctx.background, ctx.log);
  const { email: _email, ...oauthProviders } = settings.providers;
  const oauth = new OAuthService(oauthProviders as Record<string, OAuthProviderSettings>, repo, users);
  ctx.credentials.register(sessions.verifier());

  let timer: NodeJS.Timeout | undefined;
  ctx.onClose(() => clearInterval(timer));
  const purge = () => ctx.background.run('purge expired sessions', () => repo.deleteExpired(new Date().toISOString()));
  return {
    routes: [identityRoutes({ config: ctx.config, identity, users, sessions, resets, oauth }), userRoutes(users)],
    services: { identity, sessions, resets, oauth },
    startWorkers() {
      purge();
      timer = setInterval(purge, PURGE_INTERVAL_MS);
      timer.unref();
    },
  };
}
