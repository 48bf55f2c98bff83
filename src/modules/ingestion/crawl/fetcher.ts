import { Agent, request, type Dispatcher } from 'undici';
import type { CrawlSettings } from './settings.js';
import { assertLiteralHostAllowed, guardedLookup, type LookupFunction } from './ssrf.js';

/** Content types the pipeline can read; everything else is skipped before its body is downloaded. */
export const READABLE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain', 'text/markdown', 'text/x-markdown']);

export type FetchResult =
  | { kind: 'redirect'; status: number; location: string | null }
  | { kind: 'page'; status: number; contentType: string; body: string; bytes: number; etag: string | null; lastModified: string | null }
  | { kind: 'not_modified'; status: 304; etag: string | null; lastModified: string | null }
  | { kind: 'skipped'; reason: 'content_type' | 'size'; status: number; bytes: number }
  | { kind: 'failed'; status: number | null; reason: string; blocked?: boolean };

/**
 * One keep-alive connection pool per run. Redirects are never followed here (the crawler checks
 * every hop); the SSRF guard sits in `connect.lookup` unless private addresses are allowed.
 */
export function createAgent(settings: CrawlSettings, lookup?: LookupFunction): Agent {
  const connectLookup = settings.allowPrivate ? lookup : guardedLookup(lookup);
  return new Agent({
    connect: { timeout: settings.connectTimeoutMs, ...(connectLookup ? { lookup: connectLookup } : {}) },
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
    keepAliveTimeout: 10_000,
  });
}

const first = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value[0] : value) ?? null;
export const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** One HTTP GET: no redirects followed, the body streamed under `maxBytes` and decoded to text. */
export async function fetchOnce(
  url: string,
  headers: Record<string, string>,
  options: { agent: Dispatcher; settings: CrawlSettings; signal: AbortSignal; maxBytes?: number; anyType?: boolean },
): Promise<FetchResult> {
  const maxBytes = options.maxBytes ?? options.settings.maxBytes;
  let res: Dispatcher.ResponseData;
  try {
    if (!options.settings.allowPrivate) assertLiteralHostAllowed(new URL(url).hostname);
    res = await request(url, { dispatcher: options.agent, method: 'GET', headers, signal: options.signal });
  } catch (err) {
    const blocked = blockedError(err);
    if (blocked) return { kind: 'failed', status: null, reason: blocked.message, blocked: true };
    return { kind: 'failed', status: null, reason: describeError(err, options.settings) };
  }
  const status = res.statusCode;
  const etag = first(res.headers.etag);
  const lastModified = first(res.headers['last-modified']);
  if (status >= 300 && status < 400 && status !== 304) {
    await discard(res);
    return { kind: 'redirect', status, location: first(res.headers.location) };
  }
  if (status === 304) {
    await discard(res);
    return { kind: 'not_modified', status, etag, lastModified };
  }
  if (status < 200 || status >= 300) {
    await discard(res);
    return { kind: 'failed', status, reason: `HTTP ${status}` };
  }
  const contentType = first(res.headers['content-type']) ?? '';
  if (!options.anyType && !READABLE_TYPES.has(mediaType(contentType))) {
    res.body.destroy(); // not read: a PDF or video costs one round trip, not its size
    return { kind: 'skipped', reason: 'content_type', status, bytes: 0 };
  }
  const declared = Number(first(res.headers['content-length']) ?? NaN);
  if (declared > maxBytes) {
    res.body.destroy();
    return { kind: 'skipped', reason: 'size', status, bytes: 0 };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        res.body.destroy();
        return { kind: 'skipped', reason: 'size', status, bytes };
      }
      chunks.push(chunk);
    }
  } catch (err) {
    return { kind: 'failed', status, reason: describeError(err, options.settings) };
  }
  const body = decodeBody(Buffer.concat(chunks, bytes), contentType);
  return { kind: 'page', status, contentType, body, bytes, etag, lastModified };
}

async function discard(res: Dispatcher.ResponseData) {
  // Small bodies are read so the connection stays reusable; big ones just close it.
  await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
}

/** Charset from the Content-Type, else a byte-order mark, else an HTML `<meta>` in the first 1 KiB, else UTF-8. */
export function decodeBody(buffer: Buffer, contentType: string): string {
  let charset = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (!charset) {
    if (buffer[0] === 0xfe && buffer[1] === 0xff) charset = 'utf-16be';
    else if (buffer[0] === 0xff && buffer[1] === 0xfe) charset = 'utf-16le';
    else if (/html/i.test(contentType)) {
      const head = buffer.subarray(0, 1024).toString('latin1');
      charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
    }
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8'); // an unknown label is a server bug; UTF-8 is the best guess
  }
  // Node 20 decodes every windows-1252 label (latin1, ascii, ...) as ISO-8859-1; the web means 1252.
  if (decoder.encoding === 'windows-1252') return decodeWindows1252(buffer);
  return decoder.decode(buffer);
}

const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
function decodeWindows1252(buffer: Buffer): string {
  const text = buffer.toString('latin1');
  return /[\x80-\x9f]/.test(text) ? text.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
}

function blockedError(err: unknown): Error | undefined {
  const error = err as { code?: string; cause?: unknown } | undefined;
  return [error, error?.cause].find((e) => (e as { code?: string } | undefined)?.code === 'QUARRY_BLOCKED_ADDRESS') as Error | undefined;
}

function describeError(err: unknown, settings: CrawlSettings): string {
  const error = err as { code?: string; message?: string; name?: string; cause?: unknown };
  switch (error?.code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `connect timed out after ${settings.connectTimeoutMs} ms`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `no response headers within ${settings.headersTimeoutMs} ms`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `the body stalled for more than ${settings.bodyTimeoutMs} ms`;
  }
  if (error?.name === 'AbortError' || error?.code === 'UND_ERR_ABORTED') return 'cancelled';
  const cause = error?.cause as { code?: string; message?: string } | undefined;
  const code = error?.code ?? cause?.code;
  return `connection failed: ${[code, cause?.message ?? error?.message].filter(Boolean).join(' ')}`.trim();
}
