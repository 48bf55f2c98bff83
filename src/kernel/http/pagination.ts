import Type, { type TSchema } from 'typebox';

export const PageQuery = {
  page: Type.Integer({ minimum: 1, default: 1, description: '1-based page number' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page (at most 100)' }),
};

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  hasMore: Type.Boolean(),
});

export const ListEnvelope = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), pagination: Pagination });

export interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; hasMore: boolean };
}

/** Repositories fetch `limit + 1` rows; the extra one only says whether another page exists. */
export function toPage<T>(rows: T[], page: number, limit: number): Page<T> {
  return { data: rows.slice(0, limit), pagination: { page, limit, hasMore: rows.length > limit } };
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;

export const ErrorResponse = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  }),
});
