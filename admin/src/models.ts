import { api } from './api';

/**
 * Content model declarations, read from the public OpenAPI document: each model has its own
 * `/api/{model}` routes tagged `content: {model}`, and the record schema of its list answer names
 * every field and its type. Nothing here needs an admin-only endpoint.
 */
export type FieldType = 'text' | 'richText' | 'number' | 'boolean' | 'date' | 'select' | 'email' | 'json' | 'array' | 'relation';

export interface ModelField {
  name: string;
  type: FieldType;
  options?: string[];
  /** Relations: `user`, `file` or a model name. */
  to?: string;
}

export interface ContentModel {
  name: string;
  fields: ModelField[];
}

interface JsonSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
}

const SYSTEM = new Set(['id', 'createdAt', 'updatedAt', 'createdBy']);

function fieldOf(name: string, raw: JsonSchema): ModelField {
  const s = (raw.anyOf ?? raw.oneOf)?.find((x) => x.type !== 'null') ?? raw;
  if (s.enum) return { name, type: 'select', options: s.enum };
  if ((s.anyOf ?? s.oneOf)?.every((x) => 'const' in x)) return { name, type: 'select', options: (s.anyOf ?? s.oneOf)!.map((x) => String((x as { const: unknown }).const)) };
  const relation = /^Id of a (\S+)/.exec(s.description ?? '');
  if (relation) return { name, type: 'relation', to: relation[1] };
  if (s.type === 'string' && s.description === 'Markdown') return { name, type: 'richText' };
  if (s.type === 'string' && s.format === 'email') return { name, type: 'email' };
  if (s.type === 'string' && s.format === 'date-time') return { name, type: 'date' };
  if (s.type === 'string') return { name, type: 'text' };
  if (s.type === 'number' || s.type === 'integer') return { name, type: 'number' };
  if (s.type === 'boolean') return { name, type: 'boolean' };
  if (s.type === 'array') return { name, type: 'array' };
  return { name, type: 'json' };
}

let cache: Promise<ContentModel[]> | null = null;

export function loadModels(): Promise<ContentModel[]> {
  cache ??= api.get<{ paths: Record<string, Record<string, { tags?: string[]; responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> }>> }>('/v1/openapi.json').then((doc) => {
    const models: ContentModel[] = [];
    for (const [path, ops] of Object.entries(doc.paths ?? {})) {
      const m = /^\/api\/([A-Za-z][A-Za-z0-9]*)$/.exec(path);
      const list = ops.get;
      if (!m || !list?.tags?.some((t) => t.startsWith('content:'))) continue;
      const envelope = list.responses?.['200']?.content?.['application/json']?.schema;
      const record = envelope?.properties?.data?.items;
      const fields = Object.entries(record?.properties ?? {}).filter(([k]) => !SYSTEM.has(k)).map(([k, v]) => fieldOf(k, v));
      models.push({ name: m[1]!, fields });
    }
    return models.sort((a, b) => a.name.localeCompare(b.name));
  });
  cache.catch(() => {
    cache = null;
  });
  return cache;
}

/** Resources a key's permission document may name besides content models. */
export const OTHER_RESOURCES = ['projects', 'sources', 'ingestion', 'files'];
