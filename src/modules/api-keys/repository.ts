import { readJson, writeJson, typed, type AnyDb } from '../../kernel/db/dialect.js';
import type { PermissionDocument } from '../../kernel/auth/principal.js';
import type { ApiKey } from './schemas.js';

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  permissions: unknown;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const toApiKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  permissions: readJson<PermissionDocument>(r.permissions, { models: {}, admin: false }),
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export class ApiKeyRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<{ api_keys: ApiKeyRow }>(db);
  }

  async insert(key: ApiKey & { hash: string; createdBy: string | null }) {
    await this.db
      .insertInto('api_keys')
      .values({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        hash: key.hash,
        permissions: writeJson(key.permissions),
        created_by: key.createdBy,
        created_at: key.createdAt,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
  }

  async findActiveByHash(hash: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
    return row && toApiKey(row);
  }

  async find(id: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toApiKey(row);
  }

  async list(options: { includeRevoked: boolean; limit: number; offset: number }): Promise<ApiKey[]> {
    let q = this.db.selectFrom('api_keys').selectAll();
    if (!options.includeRevoked) q = q.where('revoked_at', 'is', null);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute();
    return rows.map(toApiKey);
  }

  async update(id: string, fields: { name?: string; permissions?: PermissionDocument }) {
    await this.db
      .updateTable('api_keys')
      .set({
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        ...(fields.permissions !== undefined ? { permissions: writeJson(fields.permissions) } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const r = await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async touch(id: string, at: string) {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
