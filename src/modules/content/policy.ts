import { isAdmin, type Principal } from '../../kernel/auth/principal.js';
import { AppError } from '../../kernel/errors/app-error.js';
import type { AccessRole, FieldDefinition, ModelAction } from './models.js';

/** What the policy needs to know about a resource: models, and `files`. */
export interface AccessRules {
  name: string;
  access: Record<ModelAction, AccessRole[]>;
  fields: Pick<FieldDefinition, 'name' | 'read' | 'update'>[];
}

const roleOf = (p: Principal | null): AccessRole | undefined => (p?.kind === 'user' ? p.role : undefined);

/**
 * The one access policy of the content surface; REST and GraphQL both ask it.
 * Model actions: the caller's role is listed (`public` = everyone), or a user grant
 * `<action>:<model>`, or an API key listing the action, or an admin.
 * Field rules are role lists: admins always pass, `public` lets everyone pass, API keys have no
 * role so they only see restricted fields when they are admin keys.
 */
export class ContentPolicy {
  can(principal: Principal | null, rules: AccessRules, action: ModelAction): boolean {
    if (principal && isAdmin(principal)) return true;
    const allowed = rules.access[action];
    if (allowed.includes('public')) return true;
    if (!principal) return false;
    if (principal.kind === 'api_key') return principal.permissions?.models[rules.name]?.includes(action) ?? false;
    if (principal.grants?.includes(`${action}:${rules.name}`)) return true;
    const role = roleOf(principal);
    return !!role && allowed.includes(role);
  }

  /** Throws 401 for anonymous callers and 403 for everyone else. */
  assert(principal: Principal | null, rules: AccessRules, action: ModelAction) {
    if (this.can(principal, rules, action)) return;
    if (!principal) throw new AppError('unauthorized', `Sign in or send an API key to ${action} ${rules.name}`);
    throw new AppError('forbidden', `This credential may not ${action} ${rules.name}`);
  }

  private fieldAllows(principal: Principal | null, roles: AccessRole[] | undefined): boolean {
    if (!roles) return true;
    if (principal && isAdmin(principal)) return true;
    if (roles.includes('public')) return true;
    const role = roleOf(principal);
    return !!role && roles.includes(role);
  }

  readableFields(principal: Principal | null, rules: AccessRules): Set<string> {
    return new Set(rules.fields.filter((f) => this.fieldAllows(principal, f.read)).map((f) => f.name));
  }

  /** 403 naming the first field the caller may not write. */
  assertWritable(principal: Principal | null, rules: AccessRules, fieldNames: string[]) {
    const forbidden = rules.fields.filter((f) => fieldNames.includes(f.name) && !this.fieldAllows(principal, f.update));
    if (forbidden.length)
      throw new AppError('forbidden', `You may not set ${forbidden.map((f) => f.name).join(', ')} on ${rules.name}`, {
        details: forbidden.map((f) => ({ field: f.name, message: 'may not be written by this credential' })),
      });
  }
}
