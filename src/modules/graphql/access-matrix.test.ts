import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';

/** One matrix (caller × model × action, and caller × field) asserted through REST and GraphQL alike. */
const models = {
  articles: {
    fields: {
      title: { type: 'text', required: true },
      notes: { type: 'text', read: ['editor'], update: ['editor'] },
      rating: { type: 'number', update: ['admin'] },
    },
    access: { read: ['public'], create: ['editor'], update: ['editor'], delete: ['admin'] },
  },
  secrets: {
    fields: { code: { type: 'text' } },
    access: { read: ['editor'], create: ['editor'], update: ['editor'], delete: ['admin'] },
  },
};

type Caller = 'anonymous' | 'viewer' | 'granted' | 'editor' | 'admin' | 'readKey' | 'adminKey';
let t: TestApp;
const tokens = {} as Record<Caller, string | null>;

beforeAll(async () => {
  t = await startTestApp({ models });
  const user = async (role: string, permissions: string[] = []) =>
    (await t.quarry.services.users.issueToken(await t.quarry.services.users.create({ email: `${role}${permissions.length}@example.test`, name: role, password: 'correct horse 1', role, permissions }))).token;
  tokens.anonymous = null;
  tokens.viewer = await user('viewer');
  tokens.granted = await user('viewer', ['create:articles', 'read:secrets']);
  tokens.editor = await user('editor');
  tokens.admin = await user('admin');
  tokens.readKey = await t.key({ models: { articles: ['read'], secrets: ['read', 'update'] } });
  tokens.adminKey = t.adminKey;
});
afterAll(() => t.close());

const single = (model: string) => (model === 'articles' ? 'Article' : 'Secret');
const sample = (model: string) => (model === 'articles' ? { title: 'T' } : { code: 'c' });

async function gql(token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const res = await t.api('POST', '/graphql', { token, body: { query, variables } });
  return res.body as { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code: string; details?: Array<{ field: string }> } }> };
}
const seed = async (model: string) => (await t.api('POST', `/api/${model}`, { body: { ...sample(model), ...(model === 'articles' ? { notes: 'secret note', rating: 3 } : {}) } })).body.data.id as string;

/** Runs the action both ways; answers [REST allowed?, GraphQL allowed?] plus the refusal codes. */
async function attempt(caller: Caller, model: string, action: string): Promise<{ rest: string; graphql: string }> {
  const token = tokens[caller];
  const id = await seed(model);
  const T = single(model);
  const restReq = {
    read: () => t.api('GET', `/api/${model}/${id}`, { token }),
    create: () => t.api('POST', `/api/${model}`, { token, body: sample(model) }),
    update: () => t.api('PATCH', `/api/${model}/${id}`, { token, body: sample(model) }),
    delete: () => t.api('DELETE', `/api/${model}/${id}`, { token }),
  }[action]!;
  const r = await restReq();
  const rest = r.status < 300 ? 'allowed' : r.body.error.code;
  const id2 = await seed(model);
  const field = Object.keys(sample(model))[0];
  const query = {
    read: `query($id: ID!) { x: ${T.toLowerCase()}(id: $id) { id } }`,
    create: `mutation { x: create${T}(data: { ${field}: "v" }) { id } }`,
    update: `mutation($id: ID!) { x: update${T}(id: $id, data: { ${field}: "v" }) { id } }`,
    delete: `mutation($id: ID!) { x: delete${T}(id: $id) { id } }`,
  }[action]!;
  const g = await gql(token, query, action === 'create' ? {} : { id: id2 });
  const graphql = g.errors?.length ? g.errors[0]!.extensions!.code : g.data?.x ? 'allowed' : 'null';
  return { rest, graphql };
}

const A = 'allowed';
const matrix: Array<[Caller, string, Record<string, string>]> = [
  ['anonymous', 'articles', { read: A, create: 'unauthorized', update: 'unauthorized', delete: 'unauthorized' }],
  ['viewer', 'articles', { read: A, create: 'forbidden', update: 'forbidden', delete: 'forbidden' }],
  ['granted', 'articles', { read: A, create: A, update: 'forbidden', delete: 'forbidden' }],
  ['editor', 'articles', { read: A, create: A, update: A, delete: 'forbidden' }],
  ['admin', 'articles', { read: A, create: A, update: A, delete: A }],
  ['readKey', 'articles', { read: A, create: 'forbidden', update: 'forbidden', delete: 'forbidden' }],
  ['adminKey', 'articles', { read: A, create: A, update: A, delete: A }],
  ['anonymous', 'secrets', { read: 'unauthorized', create: 'unauthorized', update: 'unauthorized', delete: 'unauthorized' }],
  ['viewer', 'secrets', { read: 'forbidden', create: 'forbidden', update: 'forbidden', delete: 'forbidden' }],
  ['granted', 'secrets', { read: A, create: 'forbidden', update: 'forbidden', delete: 'forbidden' }],
  ['editor', 'secrets', { read: A, create: A, update: A, delete: 'forbidden' }],
  ['readKey', 'secrets', { read: A, create: 'forbidden', update: A, delete: 'forbidden' }],
];

describe('access matrix: REST and GraphQL agree', () => {
  for (const [caller, model, expected] of matrix)
    for (const [action, outcome] of Object.entries(expected))
      it(`${caller} ${action} ${model} → ${outcome}`, async () => {
        expect(await attempt(caller, model, action)).toEqual({ rest: outcome, graphql: outcome });
      });

  const readable: Array<[Caller, boolean]> = [['anonymous', false], ['viewer', false], ['granted', false], ['readKey', false], ['editor', true], ['admin', true], ['adminKey', true]];
  for (const [caller, seesNotes] of readable)
    it(`${caller} ${seesNotes ? 'sees' : 'does not see'} the restricted field`, async () => {
      const id = await seed('articles');
      const rest = await t.api('GET', `/api/articles/${id}`, { token: tokens[caller] });
      expect('notes' in rest.body.data).toBe(seesNotes);
      expect(rest.body.data.title).toBe('T');
      const listed = await t.api('GET', `/api/articles?where[id]=${id}`, { token: tokens[caller] });
      expect('notes' in listed.body.data[0]).toBe(seesNotes);
      const g = await gql(tokens[caller], 'query($id: ID!, $sid: String!) { article(id: $id) { title notes } articles(where: { id: { eq: $sid } }) { nodes { notes } } }', { id, sid: id });
      expect(g.data!.article).toEqual({ title: 'T', notes: seesNotes ? 'secret note' : null });
      expect((g.data!.articles as { nodes: unknown[] }).nodes).toEqual([{ notes: seesNotes ? 'secret note' : null }]);
    });

  const writes: Array<[Caller, string, boolean]> = [
    ['editor', 'notes', true],
    ['editor', 'rating', false],
    ['admin', 'rating', true],
    ['granted', 'notes', false],
    ['adminKey', 'rating', true],
  ];
  for (const [caller, field, allowed] of writes)
    it(`${caller} ${allowed ? 'may' : 'may not'} write ${field}`, async () => {
      const value = field === 'rating' ? 5 : 'n';
      const rest = await t.api('POST', '/api/articles', { token: tokens[caller], body: { title: 'W', [field]: value } });
      const g = await gql(tokens[caller], `mutation($v: ${field === 'rating' ? 'Float' : 'String'}) { createArticle(data: { title: "W", ${field}: $v }) { id } }`, { v: value });
      if (allowed) {
        expect(rest.status).toBe(201);
        expect(g.errors).toBeUndefined();
      } else {
        expect([rest.status, rest.body.error.code, rest.body.error.details[0].field]).toEqual([403, 'forbidden', field]);
        expect(g.errors![0]!.extensions).toMatchObject({ code: 'forbidden', details: [{ field }] });
      }
    });

  it('refuses filtering on a field the caller cannot read, both ways', async () => {
    const rest = await t.api('GET', '/api/articles?where[notes]=secret%20note', { token: null });
    expect([rest.status, rest.body.error.code]).toEqual([403, 'forbidden']);
    const g = await gql(null, '{ articles(where: { notes: { eq: "secret note" } }) { totalCount } }');
    expect(g.errors![0]!.extensions!.code).toBe('forbidden');
  });
});
