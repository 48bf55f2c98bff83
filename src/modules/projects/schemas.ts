import Type, { type Static } from 'typebox';
import { PageQuery } from '../../kernel/http/pagination.js';

const Status = Type.Union([Type.Literal('active'), Type.Literal('archived')]);
const JsonObject = Type.Record(Type.String(), Type.Unknown(), { description: 'Free JSON object (at most 16 KB)' });

export const Project = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Status,
  metadata: JsonObject,
  features: JsonObject,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Project = Static<typeof Project>;

export const ProjectDocument = Type.Object({
  ...Project.properties,
  counts: Type.Object({ sources: Type.Integer(), documents: Type.Integer(), chunks: Type.Integer() }),
  sourceCount: Type.Integer(),
});
export type ProjectDocument = Static<typeof ProjectDocument>;

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Description = Type.String({ maxLength: 2000 });

export const CreateProjectBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    status: Type.Optional(Status),
    metadata: Type.Optional(JsonObject),
    features: Type.Optional(JsonObject),
  },
  { additionalProperties: false },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const PatchProjectBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    status: Type.Optional(Status),
    metadata: Type.Optional(JsonObject),
    features: Type.Optional(JsonObject),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchProjectBody = Static<typeof PatchProjectBody>;

export const ListProjectsQuery = Type.Object(
  {
    ...PageQuery,
    search: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
