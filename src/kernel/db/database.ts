import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import type { AnyDb, DialectName } from './dialect.js';

// COUNT(*) and BIGINT come back from pg as strings otherwise.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface Database {
  db: AnyDb;
  dialect: DialectName;
  /** The raw SQLite handle, for extensions (sqlite-vec) that attach to the same connection. */
  sqlite?: SQLite.Database;
  /**
   * A value that changes whenever anything may have written to the database (this process or
   * another). Caches keyed on it can never serve stale data. Undefined where that can't be known
   * cheaply (PostgreSQL): callers then must not cache.
   */
  changeToken?: () => string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  databaseSchema?: string;
  dataDir: string;
  poolSize?: number;
}

export const isPostgresUrl = (url?: string) => !!url && /^postgres(ql)?:\/\//.test(url);

function sqlitePath(options: DatabaseOptions): string {
  const url = options.databaseUrl;
  if (!url) return join(resolve(options.dataDir), 'quarry.db');
  if (url === ':memory:') return url;
  return resolve(url.replace(/^(sqlite|file):(\/\/)?/, ''));
}

/** Counts every statement that is not a plain SELECT (raw SQL counts too: better safe than stale). */
class WriteCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== 'SelectQueryNode') this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Kysely prepares every statement anew; on SQLite preparing costs more than running a point query.
 * Statements are reusable (better-sqlite3 is synchronous), so a bounded cache keyed by SQL text
 * removes that cost from every hot path.
 */
function withStatementCache(sqlite: SQLite.Database, max = 1000) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (isPostgresUrl(options.databaseUrl)) {
    const schema = options.databaseSchema;
    if (schema) {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.end();
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
    });
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const path = sqlitePath(options);
  if (path !== ':memory:') mkdirSync(join(path, '..'), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Every connection loads sqlite-vec: a schema holding a vec0 table cannot even be introspected
  // (as the migrator does) by a connection without it, e.g. a CLI next to a running server.
  sqliteVec.load(sqlite);
  const writes = new WriteCounter();
  const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), plugins: [writes] });
  // data_version moves when another connection (a CLI, a worker process) commits; the counter covers ours.
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const otherCommits = oncePerTurn(() => dataVersion.get() as number);
  return { db, dialect: 'sqlite', sqlite, changeToken: () => `${otherCommits()}:${writes.count}`, close: () => db.destroy() };
}

/**
 * Samples `read` at most once per event-loop turn. The pragma takes the WAL lock and cost more
 * than the cached reads it guards (several calls per request); a commit by another process is
 * then seen from the next turn, as if the request had arrived a moment earlier. Our own writes
 * are counted exactly, outside this.
 */
function oncePerTurn<T>(read: () => T): () => T {
  let value: T;
  let fresh = false;
  return () => {
    if (!fresh) {
      value = read();
      fresh = true;
      setImmediate(() => (fresh = false));
    }
    return value;
  };
}
