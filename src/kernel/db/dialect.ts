import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/** Every place where SQLite and PostgreSQL differ goes through here. */
export type DialectName = 'sqlite' | 'postgres';

// Kysely's database type is per repository (`db.withTables<…>()`); the kernel only moves the handle around.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

/** A typed view of the shared handle for one repository's tables. */
export const typed = <T>(db: AnyDb) => db as unknown as Kysely<T>;

export function dialectOf(db: AnyDb): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | undefined;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Case-insensitive substring match; `needle` is matched literally. */
export function containsInsensitive(db: AnyDb, column: string, needle: string): RawBuilder<boolean> {
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} ILIKE ${pattern} ESCAPE '\\'`
    : sql<boolean>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`; // SQLite LIKE is ASCII case-insensitive
}

/** Column type for JSON documents: text on SQLite, jsonb on PostgreSQL. Values go in and out as strings. */
export function jsonType(db: AnyDb) {
  return dialectOf(db) === 'postgres' ? sql`jsonb` : sql`text`;
}

/** pg parses jsonb for us; SQLite hands back text. Callers always get a value. */
export function readJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

export const writeJson = (value: unknown) => JSON.stringify(value ?? null);

/** Whether a JSON array column holds `value` (a string element). */
export function jsonArrayContains(db: AnyDb, column: string, value: string): RawBuilder<boolean> {
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} @> ${JSON.stringify([value])}::jsonb`
    : sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) where value = ${value})`;
}
