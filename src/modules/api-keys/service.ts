import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CredentialVerifier } from '../../kernel/auth/credentials.js';
import { PermissionDocumentSchema, type PermissionDocument, type Principal } from '../../kernel/auth/principal.js';
import { ChangeAwareCache } from '../../kernel/db/change-aware-cache.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { notFound } from '../../kernel/errors/app-error.js';
import { validatorFor } from '../../kernel/validation.js';
import type { ApiKeyRepository } from './repository.js';
import type { ApiKey, CreatedApiKey } from './schemas.js';

export const KEY_PREFIX = 'qk_';
const TOUCH_INTERVAL_MS = 60_000;
const validatePermissions = validatorFor(PermissionDocumentSchema, 'permissions');

// Keys carry 256 random bits, so a fast hash is as safe as a slow one and keeps lookups O(1).
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export class ApiKeyService {
  private readonly lastTouched = new Map<string, number>();
  /** Validates model names against what exists; set by the composition root. */
  checkPermissions: (doc: PermissionDocument) => void = () => {};

  // Every request authenticates, so this is the hottest query there is. The cache is exact: any
  // change to the database (a revocation from any process included) empties it.
  private readonly principals: ChangeAwareCache<Principal | null>;

  constructor(
    private readonly repo: ApiKeyRepository,
    changeToken?: () => string,
  ) {
    this.principals = new ChangeAwareCache(changeToken);
  }

  parsePermissions(input: unknown): PermissionDocument {
    const doc = validatePermissions(input ?? {});
    this.checkPermissions(doc);
    return doc;
  }

  async create(input: { name: string; permissions?: unknown; createdBy?: string | null }): Promise<CreatedApiKey> {
    const permissions = this.parsePermissions(input.permissions);
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const record: ApiKey = {
      id: newId('key'),
      name: input.name,
      prefix: key.slice(0, 11),
      permissions,
      createdAt: nowIso(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.repo.insert({ ...record, hash: hashKey(key), createdBy: input.createdBy ?? null });
    return { ...record, key };
  }

  list(options = { includeRevoked: false, limit: 100, offset: 0 }) {
    return this.repo.list(options);
  }

  async get(id: string): Promise<ApiKey> {
    const key = await this.repo.find(id);
    if (!key) throw notFound('api_key_not_found', id);
    return key;
  }

  async update(id: string, fields: { name?: string; permissions?: unknown }): Promise<ApiKey> {
    const current = await this.get(id);
    if (current.revokedAt) throw notFound('api_key_not_found', id);
    await this.repo.update(id, {
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.permissions !== undefined ? { permissions: this.parsePermissions(fields.permissions) } : {}),
    });
    return this.get(id);
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.repo.revoke(id, nowIso()))) throw notFound('api_key_not_found', id);
  }

  /** The credential verifier for `Authorization: Bearer qk_…`. */
  verifier(): CredentialVerifier {
    return async (_request: FastifyRequest, bearer?: string) => {
      if (!bearer?.startsWith(KEY_PREFIX)) return null;
      const hash = hashKey(bearer);
      const principal = await this.lookup(hash);
      if (!principal) return { invalid: 'The API key is unknown or revoked' };
      this.touch(principal.id);
      return { principal };
    };
  }

  private lookup(hash: string): Promise<Principal | null> {
    return this.principals.get(hash, async () => {
      const key = await this.repo.findActiveByHash(hash);
      if (!key) return null;
      return { kind: 'api_key', id: key.id, permissions: key.permissions, via: 'bearer', ...(key.permissions.rateLimit ? { rateLimit: key.permissions.rateLimit } : {}) };
    });
  }

  // `lastUsedAt` is minute-accurate: one write per key per minute keeps reads from turning into writes.
  private touch(id: string) {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(id, now);
    void this.repo.touch(id, new Date(now).toISOString()).catch(() => this.lastTouched.delete(id));
  }
}
