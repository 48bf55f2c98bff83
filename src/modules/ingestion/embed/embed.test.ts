import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from './hashing.js';
import { EmbeddingError, OpenAiEmbedder } from './openai.js';
import { createEmbedder } from './settings.js';
import { contentWords } from './text-features.js';

interface Seen {
  auth: string | undefined;
  body: { input: string[]; model: string; dimensions?: number };
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
/** Status codes to answer before behaving normally, consumed one per request. */
let failures: number[] = [];

const vectorFor = (text: string) => [text.length, 1, 0];

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const part of req) raw += part;
    const body = JSON.parse(raw);
    seen.push({ auth: req.headers.authorization, body });
    const status = failures.shift();
    if (status) {
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"busy"}}');
      return;
    }
    // Answer in reverse order: clients must sort by `index`.
    const data = (body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: vectorFor(text) })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (extra: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}) =>
  new OpenAiEmbedder({ baseUrl, model: 'nomic-embed-text', dimensions: 3, apiKey: 'sk-test', batchSize: 2, retryBaseMs: 1, ...extra });

describe('OpenAI-compatible embedder', () => {
  it('sends batches with the model and key, and returns vectors in input order', async () => {
    seen.length = 0;
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const vectors = await client().embed(texts, 'document');
    expect(vectors.map((v) => Array.from(v))).toEqual(texts.map(vectorFor));
    expect(seen.map((s) => s.body.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    expect(seen.every((s) => s.auth === 'Bearer sk-test' && s.body.model === 'nomic-embed-text' && s.body.dimensions === undefined)).toBe(true);
  });

  it('retries 500 and 429 with backoff, but not 400', async () => {
    seen.length = 0;
    failures = [500, 429];
    expect(await client().embed(['x'], 'query')).toHaveLength(1);
    expect(seen).toHaveLength(3);

    seen.length = 0;
    failures = [400];
    await expect(client().embed(['x'], 'query')).rejects.toThrow(/answered 400/);
    expect(seen).toHaveLength(1);

    seen.length = 0;
    failures = [503, 503, 503];
    await expect(client({ maxRetries: 2 }).embed(['x'], 'query')).rejects.toBeInstanceOf(EmbeddingError);
    expect(seen).toHaveLength(3);
    failures = [];
  });

  it('asks for a size when told to and refuses vectors of the wrong size', async () => {
    seen.length = 0;
    await client({ requestDimensions: true }).embed(['x'], 'query');
    expect(seen[0]!.body.dimensions).toBe(3);
    await expect(client({ dimensions: 4 }).embed(['x'], 'query')).rejects.toThrow(/3 dimensions; the setting says 4/);
  });

  it('gives up on an unreachable endpoint after its retries', async () => {
    const dead = new OpenAiEmbedder({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', dimensions: 3, maxRetries: 1, retryBaseMs: 1 });
    await expect(dead.embed(['x'], 'query')).rejects.toThrow(/failed/);
  });

  it('is built from settings, which name what is missing', () => {
    expect(createEmbedder({ provider: 'openai', baseUrl, model: 'm', dimensions: 3, apiKey: 'k' }).id).toBe('openai:m:3');
    expect(() => createEmbedder({ provider: 'openai', model: 'm' })).toThrow(/QUARRY_EMBEDDINGS_URL, QUARRY_EMBEDDINGS_DIMENSIONS/);
    expect(() => createEmbedder({ provider: 'magic' })).toThrow(/ingestion\.embedder\.provider/);
  });
});

describe('built-in hashing embedder', () => {

  it('equals a plain string-feature implementation of the same features', async () => {
    const fnv = (s: string) => { let h = 0x811c9dc5; for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193); return h >>> 0; };
    const reference = (text: string, dims = 64) => {
      const counts = new Map<string, number>();
      const add = (f: string) => counts.set(f, (counts.get(f) ?? 0) + 1);
      const tokens = contentWords(text);
      tokens.forEach((w, i) => {
        add(`w:${w}`);
        if (i + 1 < tokens.length) add(`b:${w} ${tokens[i + 1]}`);
        for (const n of [4, 5]) for (let j = 0; j + n <= w.length + 2; j++) add(`c:${`<${w}>`.slice(j, j + n)}`);
      });
      const v = new Float64Array(dims);
      for (const [f, c] of counts) { const h = fnv(f); v[h % dims]! += (h & 0x80000000 ? -1 : 1) * ({ w: 1, b: 0.5, c: 0.35 } as Record<string, number>)[f[0]!]! * (1 + Math.log(c)); }
      const norm = Math.hypot(...v);
      return [...v].map((x) => x / norm);
    };
    const text = 'Granite quarries cut granite blocks; the quarrying of granite — naïve 漢字 café';
    const [vector] = await new HashingEmbedder({ dimensions: 64 }).embed([text]);
    reference(text).forEach((x, i) => expect(vector![i]).toBeCloseTo(x, 6));
  });
  const embedder = new HashingEmbedder({ dimensions: 256 });
  const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);

  it('is deterministic, unit length and closer for related text', async () => {
    const [a, a2, related, unrelated] = await embedder.embed(
      ['Mutations in the BRCA1 gene raise cancer risk', 'Mutations in the BRCA1 gene raise cancer risk', 'BRCA1 mutation carriers and breast cancer', 'The train leaves the station at noon'],
      'document',
    );
    expect(Array.from(a!)).toEqual(Array.from(a2!));
    expect(cos(a!, a!)).toBeCloseTo(1, 5);
    expect(cos(a!, related!)).toBeGreaterThan(cos(a!, unrelated!) + 0.2);
    expect(createEmbedder().id).toBe('builtin:hash-v1:512');
  });
});
