import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundTasks } from '../../kernel/background.js';
import { nowIso } from '../../kernel/db/ids.js';
import { AppError } from '../../kernel/errors/app-error.js';
import type { UserService } from '../users/service.js';
import { randomToken, sha256 } from './crypto.js';
import type { Mailer } from './mail.js';
import type { IdentityRepository } from './repository.js';
import type { SessionService } from './sessions.js';

const RESET_TTL_MS = 3600_000;

/** Password reset by e-mail: single-use random tokens, stored hashed, valid one hour. */
export class PasswordResetService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
    private readonly background: BackgroundTasks,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Answers at once whether or not the address exists; the lookup and the mail happen in the
   * background so the response time says nothing about the address either.
   */
  request(email: string, publicUrl: string) {
    if (!this.mailer.enabled) throw new AppError('service_unavailable', 'Password reset by e-mail is not configured (auth.providers.email)');
    this.background.run('password reset mail', async () => {
      const row = await this.users.findRowByEmail(email);
      if (!row) return;
      const token = randomToken();
      const now = Date.now();
      await this.repo.insertReset({ token_hash: sha256(token), user_id: row.id, created_at: new Date(now).toISOString(), expires_at: new Date(now + RESET_TTL_MS).toISOString(), used_at: null });
      const link = `${publicUrl}/admin/reset-password?token=${encodeURIComponent(token)}`;
      await this.mailer.send({
        to: row.email,
        subject: 'Reset your Quarry password',
        text: `Someone (hopefully you) asked to reset the password of ${row.email}.\n\nOpen this link within one hour to choose a new one:\n${link}\n\nIf you did not ask, ignore this mail; your password stays as it is.\n`,
      });
      this.log.info({ userId: row.id }, 'password reset mail sent');
    });
  }

  async confirm(token: string, password: string) {
    const userId = await this.repo.spendReset(sha256(token), nowIso());
    if (!userId) throw new AppError('invalid_token', 'The reset token is invalid, used or expired; ask for a new one');
    await this.users.setPassword(userId, password);
    await this.sessions.endAllOf(userId);
  }
}
