import type { Principal, Role } from '../../kernel/auth/principal.js';
import { assertMayGrant } from '../users/policy.js';
import { AppError } from '../../kernel/errors/app-error.js';
import type { User } from '../users/schemas.js';
import type { UserService } from '../users/service.js';
import type { BruteForceGuard } from './brute-force.js';

export interface SignInResult {
  user: User;
  token: string;
  expiresAt: string;
}

/** Invitations and password sign-in. */
export class IdentityService {
  constructor(
    private readonly users: UserService,
    private readonly bruteForce: BruteForceGuard,
  ) {}

  /**
   * With no users yet, anyone may create the first one, who becomes super_admin (once: concurrent
   * attempts have one winner). Afterwards an admin must call.
   */
  async invite(caller: Principal | null, input: { email: string; password: string; name: string; role?: Role }): Promise<SignInResult> {
    if (!caller) {
      const first = await this.users.createFirst(input);
      if (!first) throw new AppError('unauthorized', 'Users exist already: an admin must send the invitation');
      return this.result(first);
    }
    assertMayGrant(caller, input.role);
    return this.result(await this.users.create(input));
  }

  async signIn(email: string, password: string, ip: string): Promise<SignInResult> {
    await this.bruteForce.check(email, ip);
    const user = await this.users.checkPassword(email, password);
    if (!user) {
      await this.bruteForce.failed(email, ip);
      throw new AppError('invalid_credentials');
    }
    await this.bruteForce.succeeded(email, ip);
    return this.result(user);
  }

  async result(user: User): Promise<SignInResult> {
    const { token, expiresAt } = await this.users.issueToken(user);
    return { user, token, expiresAt };
  }
}
