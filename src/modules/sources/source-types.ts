import Type, { type Static, type TSchema } from 'typebox';
import { AppError } from '../../kernel/errors/app-error.js';
import { validatorFor } from '../../kernel/validation.js';

/**
 * Each source type's config schema, in one place. The ingestion engine reads configs through the
 * same definitions; add a type by adding an entry here.
 */
const HttpUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute http or https URL (checked by `checkUrls`)' });

/** A glob over the URL path (picomatch), e.g. `/docs/**`; see docs/crawling.md. */
const PathGlob = Type.String({ minLength: 1, maxLength: 500, description: 'picomatch glob matched against the URL path (no query)' });

export const WebSourceConfig = Type.Object(
  {
    urls: Type.Array(HttpUrl, { minItems: 1, maxItems: 100, description: 'Seed URLs (1–100)' }),
    crawlDepth: Type.Integer({ minimum: 0, maximum: 10, default: 1, description: 'Link hops from the seeds (0 = seeds only)' }),
    scope: Type.Enum(['hostname', 'domain', 'prefix'], {
      default: 'hostname',
      description: "Which links to follow: the seed's hostname, its registrable domain (last two labels, subdomains included), or URLs under the seed's path",
    }),
    include: Type.Array(PathGlob, { maxItems: 50, default: [], description: 'Follow only links whose path matches one of these globs (empty = all)' }),
    exclude: Type.Array(PathGlob, { maxItems: 50, default: [], description: 'Never follow links whose path matches one of these globs' }),
    maxPages: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000, description: 'Most pages fetched per run (also capped by the maxPagesCeiling setting)' }),
    respectRobots: Type.Boolean({ default: true, description: 'Obey robots.txt (rules and Crawl-delay) for the QuarryBot token' }),
    headers: Type.Record(Type.String(), Type.String({ maxLength: 8192 }), {
      default: {},
      maxProperties: 30,
      description: 'Extra request headers (e.g. Cookie, Authorization), sent only to in-scope hosts; values are masked in answers',
    }),
  },
  { additionalProperties: false },
);
export type WebSourceConfig = Static<typeof WebSourceConfig>;

interface SourceType<S extends TSchema> {
  schema: S;
  /** Fills defaults and validates; throws `validation_failed` naming the field. */
  /** `stored` is the current config on an update: masked secrets sent back keep their stored value. */
  parse(config: unknown, stored?: Record<string, unknown>): Static<S>;
  /** What the API shows: secrets inside a config are masked. */
  present(config: Static<S>): Record<string, unknown>;
}

function checkUrls(urls: string[]) {
  urls.forEach((raw, i) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('validation_failed', `config.urls.${i} is not a valid URL`, { details: [{ field: `config.urls.${i}`, message: 'is not a valid URL' }] });
    }
    if (!['http:', 'https:'].includes(url.protocol) || !url.hostname)
      throw new AppError('validation_failed', `config.urls.${i} must be an absolute http or https URL`, {
        details: [{ field: `config.urls.${i}`, message: 'must be an absolute http or https URL' }],
      });
  });
}

const validateWeb = validatorFor(WebSourceConfig, 'config');

/** What `present()` shows instead of a header value; sending it back keeps the stored value. */
export const MASKED_SECRET = '••••••';
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the crawler owns: connection framing, conditional requests and the robots identity. */
const RESERVED_HEADERS = new Set([
  'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer',
  'proxy-connection', 'expect', 'if-none-match', 'if-modified-since', 'user-agent',
]);

const invalid = (field: string, message: string) =>
  new AppError('validation_failed', `${field} ${message}`, { details: [{ field, message }] });

function checkGlobs(field: 'include' | 'exclude', globs: string[]) {
  globs.forEach((glob, i) => {
    if (!glob.startsWith('/') && !glob.startsWith('*'))
      throw invalid(`config.${field}.${i}`, 'must start with "/" or "*": globs match the URL path, e.g. "/docs/**"');
    if (glob.startsWith('!')) throw invalid(`config.${field}.${i}`, 'cannot be negated; use exclude instead');
  });
}

function checkHeaders(headers: Record<string, string>, stored: unknown): Record<string, string> {
  const previous = new Map(
    Object.entries(stored && typeof stored === 'object' ? (stored as Record<string, string>) : {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const seen = new Set<string>();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const field = `config.headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw invalid(field, 'is not a valid HTTP header name');
    if (RESERVED_HEADERS.has(lower)) throw invalid(field, 'is set by the crawler and cannot be overridden');
    if (seen.has(lower)) throw invalid(field, 'is given twice (header names are case-insensitive)');
    seen.add(lower);
    let resolved = value;
    if (value === MASKED_SECRET) {
      const kept = previous.get(lower);
      if (kept === undefined) throw invalid(field, 'is the masked placeholder; send the real value');
      resolved = kept;
    }
    if (/[\r\n\0]/.test(resolved)) throw invalid(field, 'must not contain line breaks or NUL');
    out[name] = resolved;
  }
  return out;
}

export const sourceTypes = {
  web: {
    schema: WebSourceConfig,
    parse(config: unknown, stored?: Record<string, unknown>) {
      const parsed = validateWeb(config);
      checkUrls(parsed.urls);
      checkGlobs('include', parsed.include);
      checkGlobs('exclude', parsed.exclude);
      parsed.headers = checkHeaders(parsed.headers, stored?.headers);
      return parsed;
    },
    present: (config: WebSourceConfig) => ({
      ...config,
      ...(config.headers ? { headers: Object.fromEntries(Object.keys(config.headers).map((k) => [k, MASKED_SECRET])) } : {}),
    }),
  } satisfies SourceType<typeof WebSourceConfig>,
};

export type SourceTypeName = keyof typeof sourceTypes;
export const SOURCE_TYPE_NAMES = Object.keys(sourceTypes) as SourceTypeName[];

export function sourceTypeOf(type: string) {
  if (!(type in sourceTypes))
    throw new AppError('unsupported_source_type', `Source type "${type}" is not supported; use one of: ${SOURCE_TYPE_NAMES.join(', ')}`, {
      details: [{ field: 'type', message: `must be one of: ${SOURCE_TYPE_NAMES.join(', ')}` }],
    });
  return sourceTypes[type as SourceTypeName];
}
