import Type, { type Static } from 'typebox';
import type { ConfigSection } from '../../kernel/config/load.js';
import { ConfigError } from '../../kernel/config/load.js';

export const FIELD_TYPES = ['text', 'richText', 'number', 'boolean', 'date', 'select', 'email', 'json', 'array', 'relation'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const MODEL_ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export type ModelAction = (typeof MODEL_ACTIONS)[number];
/** Roles a model may list; `public` is anyone, signed in or not. */
export const ACCESS_ROLES = ['public', 'viewer', 'editor', 'admin', 'super_admin'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

/** Route prefixes other modules own under `/api`; no model may take their name. */
export const RESERVED_MODEL_NAMES = ['auth', 'admin', 'upload', 'files', 'graphql', 'health', 'users', 'apiKeys', 'api-keys', 'webhooks', 'projects', 'sources', 'ingestion'];
const SYSTEM_FIELDS = ['id', 'createdAt', 'updatedAt', 'createdBy'];

const RoleList = Type.Array(Type.Enum(ACCESS_ROLES), { uniqueItems: true });

const FieldSchema = Type.Object(
  {
    type: Type.Enum(FIELD_TYPES),
    required: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean()),
    default: Type.Optional(Type.Unknown()),
    options: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, uniqueItems: true })),
    /** Relations: `user`, `file`, or another model's name. */
    to: Type.Optional(Type.String({ minLength: 1 })),
    read: Type.Optional(RoleList),
    update: Type.Optional(RoleList),
  },
  { additionalProperties: false },
);

const ModelSchema = Type.Object(
  {
    fields: Type.Record(Type.String(), FieldSchema),
    access: Type.Optional(
      Type.Object(
        { create: Type.Optional(RoleList), read: Type.Optional(RoleList), update: Type.Optional(RoleList), delete: Type.Optional(RoleList) },
        { additionalProperties: false },
      ),
    ),
    /** GraphQL names: `singular` defaults to the name without a trailing `s`. */
    singular: Type.Optional(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' })),
  },
  { additionalProperties: false },
);

/** `models` in the configuration file: `{ "<name>": { fields, access } }`. Empty means the shipped defaults. */
export const ModelsConfigSchema = Type.Record(Type.String(), ModelSchema, { default: {} });
export type ModelsConfig = Static<typeof ModelsConfigSchema>;

export const modelsConfigSection: ConfigSection = { key: 'models', schema: ModelsConfigSchema };

export interface FieldDefinition {
  name: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  default?: unknown;
  options?: string[];
  to?: string;
  read?: AccessRole[];
  update?: AccessRole[];
}

export interface ModelDefinition {
  name: string;
  singular: string;
  /** `content_<name in snake case>` */
  table: string;
  fields: FieldDefinition[];
  access: Record<ModelAction, AccessRole[]>;
}

const DEFAULT_ACCESS: Record<ModelAction, AccessRole[]> = { read: ['public'], create: ['editor'], update: ['editor'], delete: ['admin'] };

const articleFields: ModelsConfig[string]['fields'] = {
  title: { type: 'text', required: true },
  slug: { type: 'text', required: true, unique: true },
  body: { type: 'richText' },
  status: { type: 'select', options: ['draft', 'published'], default: 'draft', required: true },
  publishedAt: { type: 'date' },
  author: { type: 'relation', to: 'user' },
  tags: { type: 'array', default: [] },
  cover: { type: 'relation', to: 'file' },
};

/** Shipped when the configuration declares no models. */
export const DEFAULT_MODELS: ModelsConfig = {
  posts: { fields: articleFields, access: DEFAULT_ACCESS },
  blogPosts: { fields: articleFields, access: DEFAULT_ACCESS },
};

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, '_');

function checkDefault(model: string, field: FieldDefinition) {
  const value = field.default;
  if (value === undefined) return;
  const bad = (why: string) => new ConfigError(`models.${model}.fields.${field.name}.default ${why}`);
  const ok: Record<FieldType, (v: unknown) => boolean> = {
    text: (v) => typeof v === 'string',
    richText: (v) => typeof v === 'string',
    email: (v) => typeof v === 'string',
    date: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
    select: (v) => typeof v === 'string' && !!field.options?.includes(v),
    number: (v) => typeof v === 'number' && Number.isFinite(v),
    boolean: (v) => typeof v === 'boolean',
    json: () => true,
    array: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    relation: () => false,
  };
  if (!ok[field.type](value)) throw bad(field.type === 'relation' ? 'is not allowed on relations' : `does not fit type ${field.type}`);
}

/** Checks what the JSON schema cannot (names, relations, options) and fills defaults. Throws ConfigError naming model and field. */
export function resolveModels(config: ModelsConfig | undefined): ModelDefinition[] {
  const declared = config && Object.keys(config).length ? config : DEFAULT_MODELS;
  const names = Object.keys(declared);
  const out: ModelDefinition[] = [];
  const singulars = new Set<string>();
  for (const name of names) {
    if (!/^[a-z][A-Za-z0-9]{0,40}$/.test(name))
      throw new ConfigError(`models.${name}: model names start with a lower-case letter and hold only letters and digits (at most 41)`);
    if (RESERVED_MODEL_NAMES.includes(name)) throw new ConfigError(`models.${name}: "${name}" is reserved (${RESERVED_MODEL_NAMES.join(', ')})`);
    const def = declared[name]!;
    const singular = def.singular ?? (name.endsWith('s') && name.length > 1 ? name.slice(0, -1) : name);
    if (singular === name || singulars.has(singular) || names.includes(singular))
      throw new ConfigError(`models.${name}: its singular name "${singular}" clashes with a list or another model; set "singular"`);
    singulars.add(singular);
    const fields: FieldDefinition[] = [];
    for (const [fieldName, f] of Object.entries(def.fields)) {
      const where = `models.${name}.fields.${fieldName}`;
      if (!/^[a-z][A-Za-z0-9]{0,50}$/.test(fieldName)) throw new ConfigError(`${where}: field names start with a lower-case letter and hold only letters and digits`);
      if (SYSTEM_FIELDS.includes(fieldName)) throw new ConfigError(`${where}: "${fieldName}" is a system field`);
      if (f.type === 'select' && !f.options) throw new ConfigError(`${where}: a select field needs "options"`);
      if (f.type !== 'select' && f.options) throw new ConfigError(`${where}: "options" only applies to select fields`);
      if (f.type === 'relation' && (!f.to || !(f.to === 'user' || f.to === 'file' || names.includes(f.to))))
        throw new ConfigError(`${where}: a relation needs "to": "user", "file" or one of the models (${names.join(', ')})`);
      if (f.type !== 'relation' && f.to) throw new ConfigError(`${where}: "to" only applies to relation fields`);
      if (f.unique && (f.type === 'json' || f.type === 'array' || f.type === 'boolean'))
        throw new ConfigError(`${where}: a ${f.type} field cannot be unique`);
      const field: FieldDefinition = { name: fieldName, type: f.type, required: f.required ?? false, unique: f.unique ?? false };
      if (f.default !== undefined) field.default = f.default;
      if (f.options) field.options = f.options;
      if (f.to) field.to = f.to;
      if (f.read) field.read = f.read;
      if (f.update) field.update = f.update;
      checkDefault(name, field);
      fields.push(field);
    }
    if (!fields.length) throw new ConfigError(`models.${name}: declare at least one field`);
    const access = { ...DEFAULT_ACCESS, ...(def.access ?? {}) };
    for (const action of ['create', 'update', 'delete'] as const)
      if (access[action].includes('public')) throw new ConfigError(`models.${name}.access.${action}: "public" is only allowed for read`);
    out.push({ name, singular, table: `content_${snakeCase(name)}`, fields, access });
  }
  return out;
}
