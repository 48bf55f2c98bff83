import type { Embedder } from '../contracts.js';

export interface OpenAiEmbedderOptions {
  baseUrl: string;
  model: string;
  dimensions: number;
  apiKey?: string;
  batchSize?: number;
  /** Send `dimensions` in the request (OpenAI text-embedding-3 models can shorten vectors). */
  requestDimensions?: boolean;
  maxRetries?: number;
  timeoutMs?: number;
  /** First backoff delay; doubles per attempt (with jitter), or follows Retry-After. */
  retryBaseMs?: number;
}

export class EmbeddingError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

interface EmbeddingsResponse {
  data?: Array<{ embedding?: number[]; index?: number }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retryable = (status: number) => status === 429 || status >= 500;

/**
 * Any OpenAI-compatible embeddings endpoint (`POST {baseUrl}/embeddings`, `{ input, model }`):
 * OpenAI, Ollama (`http://host:11434/v1`), vLLM, Hugging Face TEI. Texts go in batches; 429 and
 * 5xx answers and network errors are retried with exponential backoff; each call has a timeout.
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly url: string;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.dimensions = options.dimensions;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.id = `openai:${options.model}:${options.dimensions}`;
  }

  async embed(texts: string[], _purpose?: 'document' | 'query'): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 64;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) out.push(...(await this.batch(texts.slice(i, i + size))));
    return out;
  }

  private async batch(input: string[]): Promise<Float32Array[]> {
    const maxRetries = this.options.maxRetries ?? 4;
    const base = this.options.retryBaseMs ?? 500;
    for (let attempt = 0; ; attempt++) {
      let wait = base * 2 ** attempt * (0.75 + Math.random() * 0.5);
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            input,
            model: this.options.model,
            ...(this.options.requestDimensions ? { dimensions: this.dimensions } : {}),
          }),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
        if (res.ok) return this.parse((await res.json()) as EmbeddingsResponse, input.length);
        const detail = (await res.text().catch(() => '')).slice(0, 200);
        const error = new EmbeddingError(`Embeddings endpoint answered ${res.status}: ${detail}`, res.status);
        if (!retryable(res.status) || attempt >= maxRetries) throw error;
        const retryAfter = Number(res.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) wait = Math.min(retryAfter * 1000, 60_000);
      } catch (err) {
        if (err instanceof EmbeddingError && (!err.status || !retryable(err.status) || attempt >= maxRetries)) throw err;
        if (!(err instanceof EmbeddingError) && attempt >= maxRetries)
          throw new EmbeddingError(`Embeddings endpoint ${this.url} failed: ${(err as Error).message}`);
      }
      await sleep(wait);
    }
  }

  private parse(body: EmbeddingsResponse, expected: number): Float32Array[] {
    const data = body.data;
    if (!Array.isArray(data) || data.length !== expected)
      throw new EmbeddingError(`Embeddings endpoint returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} inputs`);
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((item) => {
      if (!Array.isArray(item.embedding) || item.embedding.length !== this.dimensions)
        throw new EmbeddingError(
          `Embeddings endpoint returned vectors of ${item.embedding?.length ?? 0} dimensions; the setting says ${this.dimensions} (QUARRY_EMBEDDINGS_DIMENSIONS)`,
        );
      return Float32Array.from(item.embedding);
    });
  }
}
