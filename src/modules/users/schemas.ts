import Type, { type Static } from 'typebox';
import { ROLES } from '../../kernel/auth/principal.js';

export const RoleSchema = Type.Enum(ROLES);
export const PermissionString = Type.String({ pattern: '^(read|create|update|delete):[A-Za-z][A-Za-z0-9_-]*$', description: '`<action>:<resource>`' });
export const EmailSchema = Type.String({ minLength: 3, maxLength: 254, format: 'email' });
export const PasswordSchema = Type.String({ minLength: 8, maxLength: 256 });

export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  permissions: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type User = Static<typeof User>;

export const NewUser = Type.Object(
  {
    email: EmailSchema,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.Optional(PasswordSchema),
    role: Type.Optional(RoleSchema),
    permissions: Type.Optional(Type.Array(PermissionString, { maxItems: 200, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type NewUser = Static<typeof NewUser>;

export const PatchUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    role: Type.Optional(RoleSchema),
    permissions: Type.Optional(Type.Array(PermissionString, { maxItems: 200, uniqueItems: true })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchUserBody = Static<typeof PatchUserBody>;
