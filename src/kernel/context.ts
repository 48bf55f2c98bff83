import type { FastifyBaseLogger } from 'fastify';
import { BackgroundTasks } from './background.js';
import pino from 'pino';
import { CredentialRegistry } from './auth/credentials.js';
import { JwtService, resolveJwtSecret } from './auth/jwt.js';
import type { Config } from './config/load.js';
import { openDatabase, type Database } from './db/database.js';
import type { AnyDb, DialectName } from './db/dialect.js';
import { RedisCounterStore } from './ratelimit/redis-store.js';
import { MemoryCounterStore, type CounterStore } from './ratelimit/store.js';

export type Role = 'serve' | 'worker' | 'cli';

/** Everything infrastructure-shaped that modules receive. Built once per process. */
export interface AppContext {
  role: Role;
  config: Config;
  db: AnyDb;
  dialect: DialectName;
  database: Database;
  log: FastifyBaseLogger;
  counters: CounterStore;
  credentials: CredentialRegistry;
  jwt: JwtService;
  background: BackgroundTasks;
  /** Cleanups run in reverse order on shutdown. */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.apiKey',
  '*.clientSecret',
];

export function createLogger(config: Config): FastifyBaseLogger {
  return pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }) as FastifyBaseLogger;
}

export async function createContext(config: Config, role: Role, log = createLogger(config)): Promise<AppContext> {
  const jwt = new JwtService(resolveJwtSecret(config), config.auth.jwt.algorithm, config.auth.jwt.expiresIn);
  const database = await openDatabase({
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.databaseSchema ? { databaseSchema: config.databaseSchema } : {}),
  });
  const counters: CounterStore = config.redisUrl ? new RedisCounterStore(config.redisUrl) : new MemoryCounterStore();
  const background = new BackgroundTasks(log);
  const closers: Array<() => Promise<void> | void> = [() => database.close(), () => counters.close(), () => background.drain()];
  return {
    role,
    config,
    db: database.db,
    dialect: database.dialect,
    database,
    log,
    counters,
    credentials: new CredentialRegistry(),
    jwt,
    background,
    onClose: (fn) => closers.push(fn),
    close: async () => {
      for (const fn of closers.reverse()) await fn();
    },
  };
}
