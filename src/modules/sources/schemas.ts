import Type, { type Static } from 'typebox';
import { PageQuery } from '../../kernel/http/pagination.js';

export const SourceStatus = Type.Enum(['idle', 'queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type SourceStatus = 'idle' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export const LastRun = Type.Union([
  Type.Object({
    runId: Type.String(),
    status: Type.String(),
    queuedAt: Type.String(),
    startedAt: Type.Union([Type.String(), Type.Null()]),
    finishedAt: Type.Union([Type.String(), Type.Null()]),
  }),
  Type.Null(),
]);

export const SourceStats = Type.Object(
  {
    documents: Type.Integer(),
    chunks: Type.Integer(),
    pagesCrawled: Type.Integer(),
    pagesFailed: Type.Integer(),
    lastIngestedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: true },
);
export type SourceStats = Static<typeof SourceStats>;

export const Source = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  type: Type.String(),
  name: Type.String(),
  config: Type.Record(Type.String(), Type.Unknown()),
  status: SourceStatus,
  lastRun: LastRun,
  stats: SourceStats,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Source = Static<typeof Source>;

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const ConfigDoc = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Type-specific settings. For `web`: `urls` (1–100 absolute http/https URLs), `crawlDepth` (0–10, default 1), and the crawl rules documented in the README.',
});

export const CreateSourceBody = Type.Object(
  {
    projectId: Type.String({ minLength: 1, maxLength: 64 }),
    type: Type.String({ minLength: 1, maxLength: 50, description: 'Source type; `web` for now' }),
    name: Type.Optional(Name),
    config: ConfigDoc,
  },
  { additionalProperties: false },
);
export type CreateSourceBody = Static<typeof CreateSourceBody>;

export const PatchSourceBody = Type.Object(
  {
    name: Type.Optional(Name),
    config: Type.Optional(ConfigDoc),
    type: Type.Optional(Type.Unknown({ description: 'Cannot be changed' })),
    projectId: Type.Optional(Type.Unknown({ description: 'Cannot be changed' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchSourceBody = Static<typeof PatchSourceBody>;

export const ListSourcesQuery = Type.Object(
  {
    projectId: Type.String({ minLength: 1, maxLength: 64 }),
    status: Type.Optional(SourceStatus),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ListSourcesQuery = Static<typeof ListSourcesQuery>;
