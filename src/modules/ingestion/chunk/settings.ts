import Type, { type Static } from 'typebox';
import type { EnvBinding } from '../../../kernel/config/core-schema.js';

/** Chunking settings; the orchestrator composes them into the `ingestion` config section. */
export const ChunkSettings = Type.Object(
  {
    targetTokens: Type.Integer({ minimum: 50, maximum: 8000, default: 400 }),
    overlapTokens: Type.Integer({ minimum: 0, maximum: 2000, default: 50 }),
  },
  { default: {}, additionalProperties: false },
);

export type ChunkSettings = Static<typeof ChunkSettings>;

/** The env bindings for ChunkSettings placed at `path` in the config (binding paths are absolute). */
export function chunkEnvAt(path: string): Record<string, EnvBinding> {
  return {
    QUARRY_CHUNK_TOKENS: { path: `${path}.targetTokens`, type: 'number' },
    QUARRY_CHUNK_OVERLAP: { path: `${path}.overlapTokens`, type: 'number' },
  };
}

/** For ChunkSettings nested as `chunk` inside the `ingestion` section: `ingestion.chunk.*`. */
export const chunkEnv: Record<string, EnvBinding> = chunkEnvAt('ingestion.chunk');
