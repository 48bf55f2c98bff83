import Type, { type Static } from 'typebox';
import { PermissionDocumentSchema } from '../../kernel/auth/principal.js';

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  permissions: PermissionDocumentSchema,
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKey = Static<typeof ApiKey>;

export const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  key: Type.String({ description: 'The plaintext key. Shown once; only its hash is stored.' }),
});
export type CreatedApiKey = Static<typeof CreatedApiKey>;
