import Type, { type Static } from 'typebox';
import { PageQuery } from '../../../kernel/http/pagination.js';

export const SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'Free text; never parsed as query syntax' }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
    mode: Type.Enum(['hybrid', 'keyword', 'semantic'], { default: 'hybrid' }),
    sourceIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type SearchBody = Static<typeof SearchBody>;

export const SearchHitSchema = Type.Object({
  chunkId: Type.String(),
  documentId: Type.String(),
  sourceId: Type.String(),
  url: Type.String(),
  title: Type.String(),
  headingPath: Type.Array(Type.String()),
  text: Type.String(),
  score: Type.Number(),
});

export const SearchResponse = Type.Object({
  data: Type.Array(SearchHitSchema),
  mode: Type.Enum(['hybrid', 'keyword', 'semantic'], { description: 'The mode used: keyword when the vector index is off' }),
});

export const DocumentSummary = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.String(),
  hash: Type.String(),
  fetchedAt: Type.String({ format: 'date-time' }),
  chunkCount: Type.Integer(),
});
export type DocumentSummary = Static<typeof DocumentSummary>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const DocumentDetail = Type.Object({
  ...DocumentSummary.properties,
  sourceId: Type.String(),
  projectId: Type.String(),
  canonicalUrl: Nullable(Type.String()),
  description: Nullable(Type.String()),
  language: Nullable(Type.String()),
  etag: Nullable(Type.String()),
  lastModified: Nullable(Type.String()),
  tokens: Type.Integer(),
  lastSeenRunId: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  markdown: Type.String({ description: 'The extracted main content' }),
});
export type DocumentDetail = Static<typeof DocumentDetail>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const ProjectIdParams = Type.Object({ projectId: Type.String({ minLength: 1, maxLength: 64 }) });
export const ListDocumentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
