import { Migrator, type Migration } from 'kysely';
import type { AnyDb } from './dialect.js';

/**
 * Modules hand their migrations to the composition root, which runs them as one ordered set.
 * Names start with a sortable stamp (`20261122_0100_projects`) so modules interleave predictably.
 */
export type MigrationSet = Record<string, Migration>;

export async function migrateToLatest(db: AnyDb, migrations: MigrationSet, schema?: string) {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
