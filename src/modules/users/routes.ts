import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { principalOf } from '../../kernel/http/guard.js';
import { ErrorResponse, ListEnvelope, PageQuery } from '../../kernel/http/pagination.js';
import type { App } from '../../kernel/http/server.js';
import { AppError } from '../../kernel/errors/app-error.js';
import Type from 'typebox';
import { assertMayChange, assertMayGrant, assertUserAdmin } from './policy.js';
import { PatchUserBody, User } from './schemas.js';
import type { UserService } from './service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const tags = ['users'];
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
const lastSuperAdmin = () => new AppError('last_super_admin', 'This is the last super_admin; make another user super_admin first');

/** User administration for admins, super_admins and admin API keys. */
export function userRoutes(service: UserService) {
  return (root: App) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/api/admin/users', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'List users', querystring: ListQuery, response: { 200: ListEnvelope(User), ...errors } },
    }, (req) => {
      assertUserAdmin(principalOf(req));
      return service.list(req.query.page, req.query.limit);
    });

    app.get('/api/admin/users/:id', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Get a user', params: IdParams, response: { 200: User, ...errors } },
    }, (req) => {
      assertUserAdmin(principalOf(req));
      return service.get(req.params.id);
    });

    app.patch('/api/admin/users/:id', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Change a user’s name, role or permissions', params: IdParams, body: PatchUserBody, response: { 200: User, ...errors } },
    }, async (req) => {
      const caller = principalOf(req);
      assertMayGrant(caller, req.body.role);
      const current = await service.get(req.params.id);
      assertMayChange(caller, current.role);
      const updated = await service.update(req.params.id, req.body);
      if (!updated) throw lastSuperAdmin();
      return updated;
    });

    app.delete('/api/admin/users/:id', {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Delete a user (not yourself, not the last super_admin)', params: IdParams, response: { 204: { type: 'null' }, ...errors } },
    }, async (req, reply) => {
      const caller = principalOf(req);
      assertUserAdmin(caller);
      if (caller.kind === 'user' && caller.id === req.params.id) throw new AppError('cannot_delete_self', 'You cannot delete your own account');
      assertMayChange(caller, (await service.get(req.params.id)).role);
      if (!(await service.remove(req.params.id))) throw lastSuperAdmin();
      return reply.code(204).send(null);
    });
  };
}
