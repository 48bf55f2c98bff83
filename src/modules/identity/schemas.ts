import Type, { type Static } from 'typebox';
import { EmailSchema, PasswordSchema, PermissionString, RoleSchema, User } from '../users/schemas.js';

export const InviteBody = Type.Object(
  {
    email: EmailSchema,
    password: PasswordSchema,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    role: Type.Optional(RoleSchema),
    permissions: Type.Optional(Type.Array(PermissionString, { maxItems: 200, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;

export const SignInBody = Type.Object(
  { email: EmailSchema, password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

export const SignInResult = Type.Object({
  user: User,
  token: Type.String({ description: 'An access JWT for `Authorization: Bearer`' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const ResetRequestBody = Type.Object({ email: EmailSchema }, { additionalProperties: false });
export const ResetConfirmBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: PasswordSchema },
  { additionalProperties: false },
);
export const Ok = Type.Object({ ok: Type.Boolean() });

export const SessionResult = Type.Object({
  session: Type.Object({ expiresAt: Type.String({ format: 'date-time' }) }),
  user: User,
});

export const ProviderParams = Type.Object({ provider: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });
export const AuthorizeQuery = Type.Object(
  { redirect: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this site to land on, e.g. /admin/' })) },
  { additionalProperties: false },
);
export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2000 })),
  state: Type.Optional(Type.String({ maxLength: 200 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});
