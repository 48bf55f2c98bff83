import Type, { type Static } from 'typebox';

export const ACTIONS = ['read', 'create', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];
export const ROLES = ['viewer', 'editor', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];

/** The permission document of an API key (the seed's shape). */
export const PermissionDocumentSchema = Type.Object(
  {
    models: Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$' }), Type.Array(Type.Enum(ACTIONS), { uniqueItems: true }), {
      default: {},
    }),
    admin: Type.Boolean({ default: false }),
    rateLimit: Type.Optional(
      Type.Object(
        {
          requests: Type.Integer({ minimum: 1 }),
          windowMs: Type.Integer({ minimum: 1000 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PermissionDocument = Static<typeof PermissionDocumentSchema>;

/** Who is calling, whatever credential proved it. */
export interface Principal {
  kind: 'api_key' | 'user';
  id: string;
  /** Users have a role; API keys have none. */
  role?: Role;
  /** API keys: the permission document. Users: extra `<action>:<model>` grants. */
  permissions?: PermissionDocument;
  grants?: string[];
  rateLimit?: { requests: number; windowMs: number };
  /** How the credential arrived: a cookie-borne session must pass the CSRF origin check. */
  via: 'bearer' | 'cookie';
  sessionId?: string;
}

const ROLE_ACTIONS: Record<Role, readonly Action[]> = {
  viewer: ['read'],
  editor: ['read', 'create', 'update'],
  admin: ACTIONS,
  super_admin: ACTIONS,
};

export const isAdmin = (p: Principal) =>
  p.kind === 'user' ? p.role === 'admin' || p.role === 'super_admin' : p.permissions?.admin === true;

/** The default policy for `/v1` resources: roles for users, the permission document for keys. */
export function can(p: Principal, model: string, action: Action): boolean {
  if (isAdmin(p)) return true;
  if (p.kind === 'api_key') return p.permissions?.models[model]?.includes(action) ?? false;
  if (p.grants?.includes(`${action}:${model}`)) return true;
  return p.role ? ROLE_ACTIONS[p.role].includes(action) : false;
}
