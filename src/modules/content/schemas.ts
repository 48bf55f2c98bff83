import Type, { type TSchema } from 'typebox';
import type { FieldDefinition, ModelDefinition } from './models.js';

export type ContentRecord = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string; createdBy: string | null };

/** The JSON schema of one field's value, for validation and for the OpenAPI document. */
export function fieldValueSchema(field: FieldDefinition): TSchema {
  switch (field.type) {
    case 'text':
      return Type.String({ maxLength: 10_000 });
    case 'richText':
      return Type.String({ maxLength: 1_000_000, description: 'Markdown' });
    case 'email':
      return Type.String({ format: 'email', maxLength: 254 });
    case 'date':
      return Type.String({ format: 'date-time', description: 'ISO 8601 date-time' });
    case 'select':
      return Type.Enum(field.options ?? []);
    case 'number':
      return Type.Number();
    case 'boolean':
      return Type.Boolean();
    case 'json':
      return Type.Unknown();
    case 'array':
      return Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 1000 });
    case 'relation':
      return Type.String({ minLength: 1, maxLength: 64, description: `Id of a ${field.to}` });
  }
}

const nullable = (s: TSchema) => Type.Union([s, Type.Null()]);

export function createBodySchema(model: ModelDefinition) {
  const props: Record<string, TSchema> = {};
  for (const f of model.fields) {
    const value = f.required ? fieldValueSchema(f) : nullable(fieldValueSchema(f));
    props[f.name] = f.required && f.default === undefined ? value : Type.Optional(f.default === undefined ? value : { ...value, default: f.default });
  }
  return Type.Object(props, { additionalProperties: false });
}

export function patchBodySchema(model: ModelDefinition) {
  const props: Record<string, TSchema> = {};
  for (const f of model.fields) props[f.name] = Type.Optional(f.required ? fieldValueSchema(f) : nullable(fieldValueSchema(f)));
  return Type.Object(props, { additionalProperties: false, minProperties: 1 });
}

/** Every field optional: the caller may not be allowed to read some of them. */
export function recordSchema(model: ModelDefinition) {
  const props: Record<string, TSchema> = {
    id: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    createdBy: nullable(Type.String()),
  };
  for (const f of model.fields) props[f.name] = Type.Optional(nullable(fieldValueSchema(f)));
  return Type.Object(props, { $id: undefined });
}

export const ListContentQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    sort: Type.Optional(Type.String({ maxLength: 500, description: 'Comma-separated fields, `-` for descending: `-publishedAt,title`' })),
  },
  { additionalProperties: true, description: 'Filters: `where[field]=value` or `where[field][op]=value`' },
);

export const RecordParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const ModelParams = Type.Object({ model: Type.String({ maxLength: 100 }) });
