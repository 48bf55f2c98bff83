import { AppError } from '../../kernel/errors/app-error.js';
import type { FieldType, ModelDefinition } from './models.js';

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'exists'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  field: string;
  op: Operator;
  value: unknown;
}
export interface SortKey {
  field: string;
  desc: boolean;
}

const SYSTEM_TYPES: Record<string, FieldType> = { id: 'text', createdAt: 'date', updatedAt: 'date', createdBy: 'relation' };
const ORDERED: FieldType[] = ['text', 'number', 'date', 'select', 'email', 'relation'];

const bad = (field: string, message: string) =>
  new AppError('invalid_query', `${field} ${message}`, { details: [{ field, message }] });

/** The type of a filterable/sortable field, or an `invalid_query` naming it. */
function typeOf(model: ModelDefinition, field: string, param: string): FieldType {
  const type = SYSTEM_TYPES[field] ?? model.fields.find((f) => f.name === field)?.type;
  if (!type) throw bad(param, `is not a field of ${model.name}`);
  return type;
}

function coerce(type: FieldType, raw: unknown, param: string, fromText: boolean): unknown {
  if (!fromText) return raw;
  if (typeof raw !== 'string') throw bad(param, 'must be given once');
  if (type === 'number') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw bad(param, 'must be a number');
    return n;
  }
  if (type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw bad(param, 'must be true or false');
    return raw === 'true';
  }
  return raw;
}

function condition(model: ModelDefinition, field: string, op: string, raw: unknown, param: string, fromText: boolean): Condition {
  const type = typeOf(model, field, param);
  if (!(OPERATORS as readonly string[]).includes(op)) throw bad(param, `uses an unknown operator; use one of ${OPERATORS.join(', ')}`);
  const operator = op as Operator;
  if (type === 'json') throw bad(param, 'is a json field and cannot be filtered');
  if (operator === 'exists') {
    const v = fromText ? raw === 'true' ? true : raw === 'false' ? false : undefined : raw;
    if (typeof v !== 'boolean') throw bad(param, 'must be true or false');
    return { field, op: operator, value: v };
  }
  if (type === 'array') {
    if (operator !== 'contains') throw bad(param, 'is an array field: only `contains` applies');
    if (typeof raw !== 'string') throw bad(param, 'must be a string');
    return { field, op: operator, value: raw };
  }
  if (operator === 'contains' && !['text', 'richText', 'email'].includes(type)) throw bad(param, '`contains` applies to text fields only');
  if (['gt', 'gte', 'lt', 'lte'].includes(operator) && !ORDERED.includes(type)) throw bad(param, `cannot be compared with ${operator}`);
  if (operator === 'in') {
    const list = fromText ? String(raw).split(',') : raw;
    if (!Array.isArray(list) || list.length === 0 || list.length > 100) throw bad(param, 'must list 1 to 100 values');
    const values = list.map((v) => coerce(type, v, param, fromText));
    if (type === 'date' && values.some((v) => typeof v !== 'string' || Number.isNaN(Date.parse(v)))) throw bad(param, 'must list ISO 8601 dates');
    return { field, op: operator, value: type === 'date' ? values.map((v) => new Date(v as string).toISOString()) : values };
  }
  const value = coerce(type, raw, param, fromText);
  if (type === 'date' && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) throw bad(param, 'must be an ISO 8601 date');
  return { field, op: operator, value: type === 'date' ? new Date(value as string).toISOString() : value };
}

/** `where[field]=v` and `where[field][op]=v` from a REST query string. Any other unknown parameter is refused. */
export function whereFromQuery(model: ModelDefinition, query: Record<string, unknown>): Condition[] {
  const out: Condition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (key === 'page' || key === 'limit' || key === 'sort') continue;
    const match = /^where\[([A-Za-z][A-Za-z0-9]*)\](?:\[([a-z]+)\])?$/.exec(key);
    if (!match) throw bad(key, 'is not a known parameter (use page, limit, sort, where[field][op])');
    out.push(condition(model, match[1]!, match[2] ?? 'eq', raw, key, true));
  }
  return out;
}

/** GraphQL's `where: { field: { op: value } }`. Values are already typed by the schema. */
export function whereFromObject(model: ModelDefinition, where: Record<string, Record<string, unknown> | null> | undefined | null): Condition[] {
  const out: Condition[] = [];
  for (const [field, ops] of Object.entries(where ?? {}))
    for (const [op, value] of Object.entries(ops ?? {}))
      if (value !== undefined && value !== null) out.push(condition(model, field, op, value, `where.${field}.${op}`, false));
  return out;
}

/** `-publishedAt,title` → keys; json/array fields cannot be sorted. */
export function parseSort(model: ModelDefinition, sort: string | string[] | undefined | null, param = 'sort'): SortKey[] {
  const parts = (Array.isArray(sort) ? sort : sort ? sort.split(',') : []).map((s) => s.trim()).filter(Boolean);
  if (parts.length > 5) throw bad(param, 'may name at most 5 fields');
  return parts.map((part) => {
    const desc = part.startsWith('-');
    const field = desc || part.startsWith('+') ? part.slice(1) : part;
    const type = typeOf(model, field, param);
    if (type === 'json' || type === 'array') throw bad(param, `cannot sort on ${field} (${type})`);
    return { field, desc };
  });
}
