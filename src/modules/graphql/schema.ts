import type { FieldDefinition, ModelDefinition } from '../content/models.js';

export const typeName = (m: ModelDefinition) => m.singular[0]!.toUpperCase() + m.singular.slice(1);
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export const names = (m: ModelDefinition) => ({
  type: typeName(m),
  list: m.name,
  one: m.singular,
  create: `create${typeName(m)}`,
  update: `update${typeName(m)}`,
  delete: `delete${typeName(m)}`,
});

function outputType(f: FieldDefinition, models: ModelDefinition[]): string {
  switch (f.type) {
    case 'number':
      return 'Float';
    case 'boolean':
      return 'Boolean';
    case 'json':
      return 'JSON';
    case 'array':
      return '[String!]';
    case 'relation':
      if (f.to === 'user') return 'User';
      if (f.to === 'file') return 'File';
      return typeName(models.find((m) => m.name === f.to)!);
    default:
      return 'String';
  }
}

function inputType(f: FieldDefinition): string {
  if (f.type === 'relation') return 'ID';
  if (f.type === 'array') return '[String!]';
  return { number: 'Float', boolean: 'Boolean', json: 'JSON' }[f.type as string] ?? 'String';
}

function filterType(f: FieldDefinition): string | undefined {
  if (f.type === 'json') return undefined;
  if (f.type === 'array') return 'ArrayFilter';
  return { number: 'FloatFilter', boolean: 'BooleanFilter' }[f.type as string] ?? 'StringFilter';
}

const COMMON = `
scalar JSON
"A user as other records see them: no e-mail, no role."
type User { id: ID! name: String }
type Thumbnail { name: String! url: String! width: Int! height: Int! }
type File { id: ID! filename: String! mimeType: String! size: Int! url: String! alt: String folder: String! width: Int height: Int thumbnails: [Thumbnail!]! createdAt: String! }
type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! limit: Int! offset: Int! }
input StringFilter { eq: String ne: String gt: String gte: String lt: String lte: String in: [String!] contains: String exists: Boolean }
input FloatFilter { eq: Float ne: Float gt: Float gte: Float lt: Float lte: Float in: [Float!] exists: Boolean }
input BooleanFilter { eq: Boolean ne: Boolean exists: Boolean }
input ArrayFilter { contains: String exists: Boolean }
`;

/** SDL generated from the model declarations; every field is nullable because access may hide it. */
export function buildSchema(models: ModelDefinition[]): string {
  const parts = [COMMON];
  const queries: string[] = [];
  const mutations: string[] = [];
  for (const m of models) {
    const n = names(m);
    const fields = m.fields.map((f) => `  ${f.name}: ${outputType(f, models)}`).join('\n');
    const where = m.fields
      .filter((f) => filterType(f))
      .map((f) => `  ${f.name}: ${filterType(f)}`)
      .join('\n');
    const input = m.fields.map((f) => `  ${f.name}: ${inputType(f)}`).join('\n');
    parts.push(`type ${n.type} {\n  id: ID!\n  createdAt: String!\n  updatedAt: String!\n  createdBy: ID\n${fields}\n}`);
    parts.push(`type ${n.type}Connection { nodes: [${n.type}!]! totalCount: Int! pageInfo: PageInfo! }`);
    parts.push(`input ${n.type}Where {\n  id: StringFilter\n  createdAt: StringFilter\n  updatedAt: StringFilter\n  createdBy: StringFilter\n${where}\n}`);
    parts.push(`input ${n.type}Input {\n${input}\n}`);
    queries.push(`  ${n.list}(limit: Int, offset: Int, where: ${n.type}Where, sort: [String!]): ${n.type}Connection!`);
    queries.push(`  ${n.one}(id: ID!): ${n.type}`);
    mutations.push(`  ${n.create}(data: ${n.type}Input!): ${n.type}!`);
    mutations.push(`  ${n.update}(id: ID!, data: ${n.type}Input!): ${n.type}!`);
    mutations.push(`  ${n.delete}(id: ID!): ${n.type}!`);
  }
  parts.push(`type Query {\n${queries.join('\n')}\n}`);
  parts.push(`type Mutation {\n${mutations.join('\n')}\n}`);
  return parts.join('\n\n');
}

