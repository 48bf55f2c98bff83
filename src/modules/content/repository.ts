import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { ConfigError } from '../../kernel/config/load.js';
import { containsInsensitive, dialectOf, jsonArrayContains, jsonType, readJson, writeJson, type AnyDb } from '../../kernel/db/dialect.js';
import { snakeCase, type FieldDefinition, type FieldType, type ModelDefinition } from './models.js';
import type { Condition, SortKey } from './query.js';
import type { ContentRecord } from './schemas.js';

const SYSTEM_COLUMNS: Record<string, string> = { id: 'id', createdAt: 'created_at', updatedAt: 'updated_at', createdBy: 'created_by' };
const columns = new Map<string, string>();
/** The column of a field; memoised because every record of every answer maps each field. */
export function columnOf(field: string): string {
  let column = columns.get(field);
  if (column === undefined) columns.set(field, (column = SYSTEM_COLUMNS[field] ?? snakeCase(field)));
  return column;
}

type StorageClass = 'text' | 'number' | 'integer' | 'json';
const storageOf = (type: FieldType): StorageClass =>
  type === 'number' ? 'number' : type === 'boolean' ? 'integer' : type === 'json' || type === 'array' ? 'json' : 'text';

function classOfColumn(dataType: string, dialect: string): StorageClass {
  const t = dataType.toLowerCase();
  if (/json/.test(t)) return 'json';
  if (/int/.test(t)) return 'integer';
  if (/real|float|double|numeric/.test(t)) return 'number';
  return dialect === 'sqlite' ? 'text' : 'text';
}

function columnType(db: AnyDb, type: FieldType) {
  const cls = storageOf(type);
  if (cls === 'json') return jsonType(db);
  if (cls === 'number') return dialectOf(db) === 'postgres' ? sql`double precision` : sql`real`;
  return cls === 'integer' ? sql`integer` : sql`text`;
}

function toColumnValue(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'json' || field.type === 'array') return writeJson(value);
  if (field.type === 'boolean') return value ? 1 : 0;
  if (field.type === 'date') return new Date(value as string).toISOString();
  return value;
}

function fromColumnValue(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'json' || field.type === 'array') return readJson(value, null);
  if (field.type === 'boolean') return Number(value) === 1;
  if (field.type === 'number') return Number(value);
  return value;
}

/** One real table per model (`content_<model>`) with typed, indexed columns: both databases filter and sort natively. */
export class ContentRepository {
  constructor(
    private readonly db: AnyDb,
    private readonly schema?: string,
  ) {}

  transaction<T>(fn: (repo: ContentRepository, trx: AnyDb) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new ContentRepository(trx, this.schema), trx));
  }

  /** Creates tables, adds new columns and indexes (additive only). A changed storage type stops start-up. */
  async sync(models: ModelDefinition[]): Promise<void> {
    const dialect = dialectOf(this.db);
    const schemaName = dialect === 'postgres' ? (this.schema ?? 'public') : undefined;
    const tables = (await this.db.introspection.getTables()).filter((t) => schemaName === undefined || t.schema === schemaName);
    for (const model of models) {
      const existing = tables.find((t) => t.name === model.table);
      if (!existing) {
        let create = this.db.schema
          .createTable(model.table)
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('created_by', 'text');
        for (const f of model.fields) create = create.addColumn(columnOf(f.name), columnType(this.db, f.type));
        await create.execute();
      } else {
        for (const f of model.fields) {
          const column = existing.columns.find((c) => c.name === columnOf(f.name));
          if (!column) {
            await this.db.schema.alterTable(model.table).addColumn(columnOf(f.name), columnType(this.db, f.type)).execute();
            continue;
          }
          const have = classOfColumn(column.dataType, dialect);
          const want = storageOf(f.type);
          const compatible = have === want || (dialect === 'sqlite' && ((have === 'text' && want === 'json') || (have === 'json' && want === 'text')));
          if (!compatible)
            throw new ConfigError(
              `models.${model.name}.fields.${f.name}: its type changed to ${f.type}, but column ${model.table}.${column.name} stores ${have}; add a new field instead (see docs/content.md)`,
            );
        }
      }
      await this.db.schema.createIndex(`${model.table}_created`).ifNotExists().on(model.table).columns(['created_at', 'id']).execute();
      for (const f of model.fields) {
        if (f.type === 'json' || f.type === 'array' || f.type === 'richText') continue;
        const column = columnOf(f.name);
        const builder = this.db.schema.createIndex(`${model.table}_${column}_${f.unique ? 'uq' : 'ix'}`).ifNotExists().on(model.table).column(column);
        await (f.unique ? builder.unique() : builder).execute();
      }
    }
  }

  private toRecord(model: ModelDefinition, row: Record<string, unknown>): ContentRecord {
    const record: ContentRecord = {
      id: row.id as string,
      createdAt: row.created_at as string,
      updatedAt: row.updated_at as string,
      createdBy: (row.created_by as string | null) ?? null,
    };
    for (const f of model.fields) record[f.name] = fromColumnValue(f, row[columnOf(f.name)]);
    return record;
  }

  private whereOf(model: ModelDefinition, eb: ExpressionBuilder<any, any>, c: Condition): Expression<SqlBool> {
    const column = columnOf(c.field);
    const field = model.fields.find((f) => f.name === c.field);
    const value = (v: unknown) => (field ? toColumnValue(field, v) : v);
    switch (c.op) {
      case 'exists':
        return eb(column, c.value ? 'is not' : 'is', null);
      case 'contains':
        return field?.type === 'array' ? jsonArrayContains(this.db, column, String(c.value)) : containsInsensitive(this.db, column, String(c.value));
      case 'in':
        return eb(column, 'in', (c.value as unknown[]).map(value));
      case 'ne':
        return eb.or([eb(column, '!=', value(c.value)), eb(column, 'is', null)]);
      default: {
        const ops = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
        return eb(column, ops[c.op], value(c.value));
      }
    }
  }

  /** Fetches `limit + 1` rows so the caller can tell whether another page exists. */
  async list(model: ModelDefinition, q: { where: Condition[]; sort: SortKey[]; limit: number; offset: number }): Promise<ContentRecord[]> {
    let query = this.db.selectFrom(model.table).selectAll();
    if (q.where.length) query = query.where((eb) => eb.and(q.where.map((c) => this.whereOf(model, eb, c))));
    // Empty values sort last either way, on both databases (their defaults differ).
    for (const s of q.sort) query = query.orderBy(columnOf(s.field), (ob) => (s.desc ? ob.desc() : ob.asc()).nullsLast());
    if (!q.sort.some((s) => s.field === 'createdAt')) query = query.orderBy('created_at', 'desc');
    const rows = await query.orderBy('id', 'desc').limit(q.limit + 1).offset(q.offset).execute();
    return rows.map((r) => this.toRecord(model, r));
  }

  async count(model: ModelDefinition, where: Condition[]): Promise<number> {
    let query = this.db.selectFrom(model.table).select((eb) => eb.fn.countAll().as('n'));
    if (where.length) query = query.where((eb) => eb.and(where.map((c) => this.whereOf(model, eb, c))));
    const row = await query.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(model: ModelDefinition, id: string): Promise<ContentRecord | undefined> {
    const row = await this.db.selectFrom(model.table).selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.toRecord(model, row);
  }

  async findMany(model: ModelDefinition, ids: string[]): Promise<ContentRecord[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom(model.table).selectAll().where('id', 'in', ids).execute();
    return rows.map((r) => this.toRecord(model, r));
  }

  async insert(model: ModelDefinition, record: ContentRecord): Promise<void> {
    const values: Record<string, unknown> = { id: record.id, created_at: record.createdAt, updated_at: record.updatedAt, created_by: record.createdBy };
    for (const f of model.fields) values[columnOf(f.name)] = toColumnValue(f, record[f.name]);
    await this.db.insertInto(model.table).values(values).execute();
  }

  async update(model: ModelDefinition, id: string, changes: Record<string, unknown>, updatedAt: string): Promise<void> {
    const values: Record<string, unknown> = { updated_at: updatedAt };
    for (const f of model.fields) if (f.name in changes) values[columnOf(f.name)] = toColumnValue(f, changes[f.name]);
    await this.db.updateTable(model.table).set(values).where('id', '=', id).execute();
  }

  async delete(model: ModelDefinition, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom(model.table).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Which of `ids` exist in `table` (users, files or a content table). */
  async existingIds(table: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom(table).select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id as string));
  }

  async valueTaken(model: ModelDefinition, field: string, value: unknown, exceptId?: string): Promise<boolean> {
    let q = this.db.selectFrom(model.table).select('id').where(columnOf(field), '=', value as string);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return !!(await q.executeTakeFirst());
  }

  /** Minimal public projections of users for relation answers: never e-mail or role. */
  async usersByIds(ids: string[]): Promise<Array<{ id: string; name: string }>> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute()) as Array<{ id: string; name: string }>;
  }
}
