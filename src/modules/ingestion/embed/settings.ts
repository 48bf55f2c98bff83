import Type, { type Static } from 'typebox';
import type { EnvBinding } from '../../../kernel/config/core-schema.js';
import { ConfigError } from '../../../kernel/config/load.js';
import type { AppError } from '../../../kernel/errors/app-error.js';
import { validatorFor } from '../../../kernel/validation.js';
import type { Embedder } from '../contracts.js';
import { HashingEmbedder } from './hashing.js';
import { OpenAiEmbedder } from './openai.js';

export const BUILTIN_DEFAULT_DIMENSIONS = 512;

/** Embedding settings, read from `ingestion.embedder` (validated by `createEmbedder`). */
export const EmbedSettings = Type.Object(
  {
    provider: Type.Enum(['builtin', 'openai'], { default: 'builtin', description: 'builtin (feature hashing, no model) or openai (any OpenAI-compatible endpoint)' }),
    model: Type.Optional(Type.String({ minLength: 1, description: 'Model name sent to the endpoint (openai)' })),
    baseUrl: Type.Optional(Type.String({ pattern: '^https?://', description: 'e.g. https://api.openai.com/v1 or http://localhost:11434/v1' })),
    apiKey: Type.Optional(Type.String({ minLength: 1, description: 'Bearer token for the endpoint (secret)' })),
    dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096, description: 'Vector size; required for openai, builtin default 512' })),
    requestDimensions: Type.Boolean({ default: false, description: 'Send `dimensions` in the request (OpenAI text-embedding-3 only)' }),
    batchSize: Type.Integer({ minimum: 1, maximum: 2048, default: 64 }),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
    maxRetries: Type.Integer({ minimum: 0, maximum: 10, default: 4 }),
  },
  { default: {}, additionalProperties: false },
);
export type EmbedSettings = Static<typeof EmbedSettings>;

/** Environment bindings for `EmbedSettings`, placed under `prefix` (default `ingestion.embedder`). */
export function embedEnvAt(prefix: string): Record<string, EnvBinding> {
  return {
    QUARRY_EMBEDDER: { path: `${prefix}.provider`, type: 'string' },
    QUARRY_EMBEDDINGS_URL: { path: `${prefix}.baseUrl`, type: 'string' },
    QUARRY_EMBEDDINGS_MODEL: { path: `${prefix}.model`, type: 'string' },
    QUARRY_EMBEDDINGS_API_KEY: { path: `${prefix}.apiKey`, type: 'string', secret: true },
    QUARRY_EMBEDDINGS_DIMENSIONS: { path: `${prefix}.dimensions`, type: 'number' },
    QUARRY_EMBEDDINGS_REQUEST_DIMENSIONS: { path: `${prefix}.requestDimensions`, type: 'boolean' },
    QUARRY_EMBEDDINGS_BATCH_SIZE: { path: `${prefix}.batchSize`, type: 'number' },
    QUARRY_EMBEDDINGS_TIMEOUT_MS: { path: `${prefix}.timeoutMs`, type: 'number' },
    QUARRY_EMBEDDINGS_MAX_RETRIES: { path: `${prefix}.maxRetries`, type: 'number' },
  };
}

export const embedEnv = embedEnvAt('ingestion.embedder');

const validate = validatorFor(EmbedSettings, 'ingestion.embedder');

/** Validates raw settings (fills defaults); a bad value is a ConfigError naming the setting. */
export function parseEmbedSettings(raw: unknown = {}): EmbedSettings {
  try {
    return validate(raw ?? {});
  } catch (err) {
    const details = (err as AppError).details ?? [];
    throw new ConfigError(`Invalid configuration:\n  - ${details.map((d) => `setting "${d.field}" ${d.message}`).join('\n  - ')}`);
  }
}

export function createEmbedder(raw: unknown = {}): Embedder {
  const settings = parseEmbedSettings(raw);
  if (settings.provider === 'builtin') return new HashingEmbedder({ dimensions: settings.dimensions ?? BUILTIN_DEFAULT_DIMENSIONS });
  const missing = (['baseUrl', 'model', 'dimensions'] as const).filter((k) => settings[k] === undefined);
  if (missing.length)
    throw new ConfigError(
      `QUARRY_EMBEDDER=openai needs ${missing.map((k) => ({ baseUrl: 'QUARRY_EMBEDDINGS_URL', model: 'QUARRY_EMBEDDINGS_MODEL', dimensions: 'QUARRY_EMBEDDINGS_DIMENSIONS' })[k]).join(', ')}`,
    );
  return new OpenAiEmbedder({
    baseUrl: settings.baseUrl!,
    model: settings.model!,
    dimensions: settings.dimensions!,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    batchSize: settings.batchSize,
    requestDimensions: settings.requestDimensions,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
}
