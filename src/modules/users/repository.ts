import { sql, type Kysely } from 'kysely';
import { dialectOf, isUniqueViolation, readJson, writeJson, typed, type AnyDb } from '../../kernel/db/dialect.js';
import { offsetOf } from '../../kernel/http/pagination.js';
import type { Role } from '../../kernel/auth/principal.js';
import type { User } from './schemas.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  permissions: unknown;
  password_hash: string | null;
  tokens_valid_after: string | null;
  created_at: string;
  updated_at: string;
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  permissions: readJson<string[]>(r.permissions, []),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class UserRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<{ users: UserRow }>(db);
  }

  /** Returns false when the e-mail is taken. */
  async insert(user: User, passwordHash: string | null): Promise<boolean> {
    try {
      await this.db
        .insertInto('users')
        .values({
          id: user.id,
          email: user.email,
          name: user.name,
          role: user.role,
          permissions: writeJson(user.permissions),
          password_hash: passwordHash,
          tokens_valid_after: null,
          created_at: user.createdAt,
          updated_at: user.updatedAt,
        })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /**
   * Creates the first user, or returns false when any user exists or another bootstrap won: the
   * marker row's primary key serialises concurrent attempts on both dialects.
   */
  async insertFirst(user: User, passwordHash: string): Promise<boolean> {
    const db = typed<{ users: UserRow; user_bootstrap: { id: string; created_at: string } }>(this.db as AnyDb);
    try {
      return await db.transaction().execute(async (trx) => {
        await trx.insertInto('user_bootstrap').values({ id: 'first-user', created_at: user.createdAt }).execute();
        const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
        if (existing) throw new BootstrapClosed();
        await trx
          .insertInto('users')
          .values({ id: user.id, email: user.email, name: user.name, role: user.role, permissions: writeJson(user.permissions), password_hash: passwordHash, tokens_valid_after: null, created_at: user.createdAt, updated_at: user.updatedAt })
          .execute();
        return true;
      });
    } catch (err) {
      if (err instanceof BootstrapClosed || isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Changes fields unless that would leave no super_admin; false when it would (or the user is gone). */
  async updateKeepingSuperAdmin(id: string, fields: { name?: string; role?: Role; permissions?: string[] }, at: string): Promise<boolean> {
    const { permissions, ...rest } = fields;
    return this.withSuperAdminsLocked(async (db) => {
      let q = db
        .updateTable('users')
        .set({ ...rest, ...(permissions ? { permissions: writeJson(permissions) } : {}), updated_at: at })
        .where('id', '=', id);
      if (fields.role && fields.role !== 'super_admin') q = q.where(this.notLastSuperAdmin());
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  }

  async deleteKeepingSuperAdmin(id: string): Promise<boolean> {
    return this.withSuperAdminsLocked(async (db) => {
      const r = await db.deleteFrom('users').where('id', '=', id).where(this.notLastSuperAdmin()).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  /**
   * On PostgreSQL two concurrent demotions could each count the other super_admin; locking the
   * super_admin rows first serialises them (the count is read after the lock is granted). SQLite
   * runs one writer at a time already.
   */
  private withSuperAdminsLocked<T>(work: (db: Kysely<{ users: UserRow }>) => Promise<T>): Promise<T> {
    if (dialectOf(this.db as AnyDb) !== 'postgres') return work(this.db);
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('role', '=', 'super_admin').orderBy('id').forUpdate().execute();
      return work(trx);
    });
  }

  // One statement, so the check and the change cannot be split by a concurrent demotion.
  private notLastSuperAdmin() {
    return sql<boolean>`(role <> 'super_admin' or (select count(*) from users where role = 'super_admin') > 1)`;
  }

  findRow(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findRowByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async list(page: number, limit: number): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).offset(offsetOf(page, limit)).execute();
    return rows.map(toUser);
  }

  async update(id: string, fields: Partial<Pick<UserRow, 'name' | 'role' | 'password_hash' | 'tokens_valid_after'>> & { permissions?: string[] }, at: string) {
    const { permissions, ...rest } = fields;
    await this.db
      .updateTable('users')
      .set({ ...rest, ...(permissions ? { permissions: writeJson(permissions) } : {}), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}

class BootstrapClosed extends Error {}
