import { isAdmin, type Principal, type Role } from '../../kernel/auth/principal.js';
import { AppError } from '../../kernel/errors/app-error.js';

const PRIVILEGED: readonly Role[] = ['admin', 'super_admin'];

export const isSuperAdmin = (p: Principal) => p.kind === 'user' && p.role === 'super_admin';

/** Who may manage users: admins (and admin API keys). */
export function assertUserAdmin(caller: Principal) {
  if (!isAdmin(caller)) throw new AppError('forbidden', 'Only an admin may manage users');
}

/** Admins hand out roles up to editor; only a super_admin grants (or takes away) admin and super_admin. */
export function assertMayGrant(caller: Principal, role: Role | undefined) {
  assertUserAdmin(caller);
  if (role && PRIVILEGED.includes(role) && !isSuperAdmin(caller)) throw new AppError('forbidden', `Only a super_admin may grant the ${role} role`);
}

export function assertMayChange(caller: Principal, currentRole: Role) {
  if (PRIVILEGED.includes(currentRole) && !isSuperAdmin(caller))
    throw new AppError('forbidden', `Only a super_admin may change or remove a user with the ${currentRole} role`);
}
