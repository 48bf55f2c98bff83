import Type, { type Static } from 'typebox';
import { PageQuery } from '../../kernel/http/pagination.js';

export const RunStatus = Type.Enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const ACTIVE_STATUSES: RunStatus[] = ['queued', 'running'];

export const RunStats = Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()]), {
  description: 'Counters, updated while the run goes',
});

export const Run = Type.Object({
  runId: Type.String(),
  sourceId: Type.String(),
  projectId: Type.String(),
  status: RunStatus,
  queuedAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String(), Type.Null()]),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  stats: RunStats,
});
export type Run = Static<typeof Run>;

export const TriggerBody = Type.Object({ sourceId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type TriggerBody = Static<typeof TriggerBody>;

export const TriggerResponse = Type.Object({
  runId: Type.String(),
  sourceId: Type.String(),
  status: Type.Literal('queued'),
  queuedAt: Type.String({ format: 'date-time' }),
});

export const RunParams = Type.Object({ runId: Type.String({ minLength: 1, maxLength: 64 }) });

export const SourceRunsParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const PageOnlyQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export type PageOnlyQuery = Static<typeof PageOnlyQuery>;

export const RunError = Type.Object({
  url: Type.String(),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status, or null when no answer came (network error, timeout)' }),
  reason: Type.String(),
  at: Type.String({ format: 'date-time' }),
});
export type RunError = Static<typeof RunError>;
