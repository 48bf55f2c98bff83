import { hash, verify } from '@node-rs/argon2';
import type { FastifyRequest } from 'fastify';
import type { CredentialVerifier } from '../../kernel/auth/credentials.js';
import type { JwtService } from '../../kernel/auth/jwt.js';
import type { Principal, Role } from '../../kernel/auth/principal.js';
import { toPage } from '../../kernel/http/pagination.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { AppError, notFound } from '../../kernel/errors/app-error.js';
import { validatorFor } from '../../kernel/validation.js';
import { toUser, type UserRepository, type UserRow } from './repository.js';
import { NewUser, type User } from './schemas.js';

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes).
const ARGON = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const validateNewUser = validatorFor(NewUser, '');
// Verifying against this keeps an unknown e-mail as slow as a wrong password.
let dummyHash: Promise<string> | undefined;

export class UserService {
  constructor(
    private readonly repo: UserRepository,
    private readonly jwt: JwtService,
  ) {}

  hashPassword = (password: string) => hash(password, ARGON);

  async create(input: unknown): Promise<User> {
    const { user, password } = this.prepare(input);
    const passwordHash = password ? await this.hashPassword(password) : null;
    if (!(await this.repo.insert(user, passwordHash))) throw new AppError('email_taken', `A user with e-mail ${user.email} already exists`);
    return user;
  }

  /** Creates the first user as super_admin; null when a user already exists (bootstrap is over). */
  async createFirst(input: unknown): Promise<User | null> {
    const { user, password } = this.prepare(input);
    user.role = 'super_admin';
    if (!password) throw new AppError('validation_failed', 'password is required', { details: [{ field: 'password', message: 'is required' }] });
    return (await this.repo.insertFirst(user, await this.hashPassword(password))) ? user : null;
  }

  private prepare(input: unknown): { user: User; password: string | undefined } {
    const data = validateNewUser(input);
    const now = nowIso();
    const user: User = {
      id: newId('usr'),
      email: data.email.trim().toLowerCase(),
      name: data.name.trim(),
      role: data.role ?? 'viewer',
      permissions: data.permissions ?? [],
      createdAt: now,
      updatedAt: now,
    };
    return { user, password: data.password };
  }

  list = (page: number, limit: number) => this.repo.list(page, limit).then((rows) => toPage(rows, page, limit));

  /** False when the change would leave no super_admin. */
  async update(id: string, fields: { name?: string; role?: Role; permissions?: string[] }): Promise<User | null> {
    await this.get(id);
    const ok = await this.repo.updateKeepingSuperAdmin(id, { ...fields, ...(fields.name ? { name: fields.name.trim() } : {}) }, nowIso());
    return ok ? this.get(id) : null;
  }

  /** False when the user is the last super_admin. */
  async remove(id: string): Promise<boolean> {
    await this.get(id);
    return this.repo.deleteKeepingSuperAdmin(id);
  }

  /** Sets a new password and refuses every token issued before now. */
  async setPassword(id: string, password: string) {
    await this.repo.update(id, { password_hash: await this.hashPassword(password), tokens_valid_after: nowIso() }, nowIso());
  }

  findRowByEmail = (email: string) => this.repo.findRowByEmail(email.trim());

  async get(id: string): Promise<User> {
    const row = await this.repo.findRow(id);
    if (!row) throw notFound('user_not_found', id);
    return toUser(row);
  }

  count = () => this.repo.count();

  /** Null when the e-mail is unknown or the password wrong; takes about as long either way. */
  async checkPassword(email: string, password: string): Promise<User | null> {
    const row = await this.repo.findRowByEmail(email.trim());
    dummyHash ??= this.hashPassword('quarry-timing-equaliser');
    const stored = row?.password_hash ?? (await dummyHash);
    const ok = await verify(stored, password).catch(() => false);
    return ok && row?.password_hash ? toUser(row) : null;
  }

  issueToken(user: User) {
    return this.jwt.sign({ sub: user.id, role: user.role, iat_ms: Date.now() });
  }

  /**
   * Turns a verified user row into a principal, refusing tokens issued before a revocation.
   * `issuedAtMs` comes from the signed `iat_ms` claim where present: `iat` has whole seconds only,
   * which would let a token from the same second as a password reset survive it.
   */
  principalFor(row: UserRow, issuedAt: number | undefined, via: Principal['via'], issuedAtMs?: unknown): Principal | null {
    const issued = typeof issuedAtMs === 'number' ? issuedAtMs : (issuedAt ?? 0) * 1000;
    if (row.tokens_valid_after && issued < Date.parse(row.tokens_valid_after)) return null;
    return { kind: 'user', id: row.id, role: row.role, grants: toUser(row).permissions, via };
  }

  findRow = (id: string) => this.repo.findRow(id);

  /** The credential verifier for `Authorization: Bearer <JWT>`. */
  verifier(): CredentialVerifier {
    return async (_request: FastifyRequest, bearer?: string) => {
      if (!bearer || bearer.split('.').length !== 3) return null;
      const claims = await this.jwt.verify(bearer);
      if (!claims) return { invalid: 'The token is invalid or has expired' };
      const row = await this.repo.findRow(claims.sub);
      const principal = row && this.principalFor(row, claims.iat, 'bearer', claims.iat_ms);
      return principal ? { principal } : { invalid: 'The token no longer grants access' };
    };
  }
}
