import type { FastifyInstance } from 'fastify';
import type { ConfigSection } from './config/load.js';
import type { AppContext } from './context.js';
import type { MigrationSet } from './db/migrate.js';

/** A CLI sub-command: `quarry <group> <name> [--flags]`. Prints to stdout; returns the exit code. */
export type CliCommand = (ctx: AppContext, args: { positionals: string[]; flags: Record<string, string | boolean> }) => Promise<number>;

/**
 * What a feature hands the composition root. Static parts (config, migrations) are known before
 * anything opens; `start` wires services once the context exists and returns what the roles need.
 */
export interface FeatureModule {
  name: string;
  config?: ConfigSection;
  migrations?: MigrationSet;
}

export interface StartedModule {
  routes?(app: FastifyInstance): Promise<void> | void;
  /** Background work for the worker role (and for `serve` in embedded mode). */
  startWorkers?(): Promise<void> | void;
  cli?: Record<string, CliCommand>;
}
