import Type, { type Static } from 'typebox';
import type { EnvBinding } from '../../../kernel/config/core-schema.js';
import type { ConfigSection } from '../../../kernel/config/load.js';
import { embedEnv } from '../embed/settings.js';

/**
 * The `search` config section: hybrid tuning. Whether vectors are kept at all is the ingestion
 * section's `vector` (QUARRY_VECTOR); the embedder is `ingestion.embedder` (EmbedSettings).
 */
export const SearchSettings = Type.Object(
  {
    candidates: Type.Integer({ minimum: 10, maximum: 1000, default: 50, description: 'Candidates taken from each list before fusion' }),
    rrfK: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 10 with the builtin embedder, 60 otherwise' })),
    keywordWeight: Type.Number({ minimum: 0, maximum: 10, default: 1 }),
    vectorWeight: Type.Optional(Type.Number({ minimum: 0, maximum: 10, description: 'Default 0.2 with the builtin embedder, 1 otherwise' })),
    maxPostings: Type.Integer({
      minimum: 0,
      default: 50_000,
      description: 'SQLite keyword search: the most common query terms are left out while the terms together occur in more chunks than this (0: never)',
    }),
  },
  { default: {}, additionalProperties: false },
);
export type SearchSettings = Static<typeof SearchSettings>;

export const searchEnv: Record<string, EnvBinding> = {
  QUARRY_SEARCH_CANDIDATES: { path: 'search.candidates', type: 'number' },
  QUARRY_SEARCH_RRF_K: { path: 'search.rrfK', type: 'number' },
  QUARRY_SEARCH_KEYWORD_WEIGHT: { path: 'search.keywordWeight', type: 'number' },
  QUARRY_SEARCH_VECTOR_WEIGHT: { path: 'search.vectorWeight', type: 'number' },
  QUARRY_SEARCH_MAX_POSTINGS: { path: 'search.maxPostings', type: 'number' },
};

/** Also binds the embedder's environment variables (their paths live under `ingestion.embedder`). */
export const searchConfigSection: ConfigSection = { key: 'search', schema: SearchSettings, env: { ...searchEnv, ...embedEnv } };

export const searchSettingsWithDefaults = (partial: Partial<SearchSettings> = {}): SearchSettings => ({
  candidates: 50,
  keywordWeight: 1,
  maxPostings: 50_000,
  ...partial,
});

/**
 * Fusion weights. The built-in embedder is a weaker lexical model than bm25 (SciFact nDCG@10
 * 0.49 vs 0.70), so by default it only nudges the keyword ranking; a real embedding model gets
 * equal say (standard RRF, k = 60). Measured with `npm run eval:search`; see docs/search.md.
 */
export function fusionFor(settings: SearchSettings, embedderId: string) {
  const builtin = embedderId.startsWith('builtin:');
  return {
    candidates: settings.candidates,
    keywordWeight: settings.keywordWeight,
    rrfK: settings.rrfK ?? (builtin ? 10 : 60),
    vectorWeight: settings.vectorWeight ?? (builtin ? 0.2 : 1),
  };
}
