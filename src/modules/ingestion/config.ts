import Type, { type Static } from 'typebox';
import type { ConfigSection } from '../../kernel/config/load.js';
import type { EnvBinding } from '../../kernel/config/core-schema.js';
import { ChunkSettings, chunkEnvAt } from './chunk/settings.js';
import { CrawlSettings, crawlEnv } from './crawl/settings.js';
import { EmbedSettings, embedEnv } from './embed/settings.js';

/** Queue and run settings: how many runs at once, leases, retries. */
const RunSettings = {
  runConcurrency: Type.Integer({ minimum: 1, maximum: 64, default: 2, description: 'Runs one worker process executes at once' }),
  leaseMs: Type.Integer({ minimum: 1000, default: 30_000, description: 'How long a run stays claimed without a heartbeat before another worker may take it' }),
  heartbeatMs: Type.Integer({ minimum: 100, default: 500, description: 'Lease renewal, progress write and cancellation check interval' }),
  maxAttempts: Type.Integer({ minimum: 1, maximum: 20, default: 3, description: 'Claims of one run before it is failed (a worker died each time)' }),
  sweepMs: Type.Integer({ minimum: 100, default: 2000, description: 'How often workers look for queued runs nobody announced and for expired leases' }),
  workInServe: Type.Boolean({ default: false, description: 'With REDIS_URL: let `serve` also execute runs (embedded mode always does)' }),
  queuePrefix: Type.String({ minLength: 1, default: 'quarry', description: 'BullMQ key prefix in Redis' }),
  maxErrorsPerRun: Type.Integer({ minimum: 0, default: 1000, description: 'Failed URLs kept per run for GET /v1/runs/{id}/errors' }),
  embedBatchSize: Type.Integer({ minimum: 1, maximum: 2048, default: 64, description: 'Chunks per embedding request' }),
  maxPendingWrites: Type.Integer({ minimum: 1, default: 256, description: 'Parsed pages waiting to be embedded and written before the crawl waits' }),
  parseThreads: Type.Integer({ minimum: -1, maximum: 32, default: -1, description: 'Worker threads for parsing (0 = main thread; -1 = one per spare core)' }),
  vector: Type.Enum(['on', 'off'], { default: 'on', description: 'Embed chunks and keep the vector index' }),
};

const runEnv: Record<string, EnvBinding> = {
  QUARRY_INGESTION_RUN_CONCURRENCY: { path: 'ingestion.runConcurrency', type: 'number' },
  QUARRY_INGESTION_LEASE_MS: { path: 'ingestion.leaseMs', type: 'number' },
  QUARRY_INGESTION_HEARTBEAT_MS: { path: 'ingestion.heartbeatMs', type: 'number' },
  QUARRY_INGESTION_MAX_ATTEMPTS: { path: 'ingestion.maxAttempts', type: 'number' },
  QUARRY_INGESTION_SWEEP_MS: { path: 'ingestion.sweepMs', type: 'number' },
  QUARRY_INGESTION_WORK_IN_SERVE: { path: 'ingestion.workInServe', type: 'boolean' },
  QUARRY_QUEUE_PREFIX: { path: 'ingestion.queuePrefix', type: 'string' },
  QUARRY_INGESTION_MAX_ERRORS: { path: 'ingestion.maxErrorsPerRun', type: 'number' },
  QUARRY_EMBED_BATCH_SIZE: { path: 'ingestion.embedBatchSize', type: 'number' },
  QUARRY_INGESTION_PARSE_THREADS: { path: 'ingestion.parseThreads', type: 'number' },
  QUARRY_VECTOR: { path: 'ingestion.vector', type: 'string' },
};

export const IngestionSettingsSchema = Type.Object(
  {
    ...RunSettings,
    crawl: CrawlSettings,
    chunking: ChunkSettings,
    embedder: EmbedSettings,
  },
  { additionalProperties: false },
);
export type IngestionSettings = Static<typeof IngestionSettingsSchema>;

export const ingestionConfig: ConfigSection = { key: 'ingestion', schema: IngestionSettingsSchema, env: { ...runEnv, ...crawlEnv, ...chunkEnvAt('ingestion.chunking'), ...embedEnv } };
