import { typed, type AnyDb } from '../../kernel/db/dialect.js';

export interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  renewed_at: string;
  expires_at: string;
}

interface PasswordResetRow {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthStateRow {
  state_hash: string;
  provider: string;
  verifier: string;
  nonce: string;
  redirect: string | null;
  expires_at: string;
}

interface Tables {
  sessions: SessionRow;
  password_resets: PasswordResetRow;
  oauth_states: OAuthStateRow;
}

/** Sessions, reset tokens and OAuth states: every secret is stored as its sha256 hash. */
export class IdentityRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<Tables>(db);
  }

  async insertSession(row: SessionRow) {
    await this.db.insertInto('sessions').values(row).execute();
  }

  findSession(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  async renewSession(id: string, renewedAt: string, expiresAt: string) {
    await this.db.updateTable('sessions').set({ renewed_at: renewedAt, expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async deleteSession(id: string) {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  async deleteSessionsOf(userId: string) {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpired(now: string) {
    await this.db.deleteFrom('sessions').where('expires_at', '<', now).execute();
    await this.db.deleteFrom('password_resets').where('expires_at', '<', now).execute();
    await this.db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
  }

  async insertReset(row: PasswordResetRow) {
    await this.db.insertInto('password_resets').values(row).execute();
  }

  /** Marks the token used in one statement, so two concurrent confirmations cannot both win. */
  async spendReset(tokenHash: string, now: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async insertOAuthState(row: OAuthStateRow) {
    await this.db.insertInto('oauth_states').values(row).execute();
  }

  /** Reads and deletes a state at once: each state is good for one callback. */
  async takeOAuthState(stateHash: string, now: string): Promise<OAuthStateRow | undefined> {
    const row = await this.db.deleteFrom('oauth_states').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
    return row && row.expires_at > now ? row : undefined;
  }
}
