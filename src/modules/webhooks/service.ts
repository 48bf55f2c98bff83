import { createHash } from 'node:crypto';
import Type, { type Static } from 'typebox';
import type { ConfigSection } from '../../kernel/config/load.js';
import type { AnyDb } from '../../kernel/db/dialect.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { AppError } from '../../kernel/errors/app-error.js';
import { offsetOf, toPage } from '../../kernel/http/pagination.js';
import type { Delivery, Endpoint, WebhookRepository } from './repository.js';

const EndpointConfig = Type.Object(
  {
    url: Type.String({ pattern: '^https?://' }),
    events: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    models: Type.Optional(Type.Array(Type.String())),
    secret: Type.String({ minLength: 16 }),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const WebhooksConfigSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: true }),
    endpoints: Type.Array(EndpointConfig, { default: [] }),
    timeoutMs: Type.Integer({ minimum: 100, default: 10_000 }),
    pollMs: Type.Integer({ minimum: 10, default: 1000 }),
    retryBaseMs: Type.Integer({ minimum: 1, default: 10_000 }),
    maxDelayMs: Type.Integer({ minimum: 1, default: 8 * 3600_000 }),
    maxAttempts: Type.Integer({ minimum: 1, default: 12 }),
    leaseMs: Type.Integer({ minimum: 1000, default: 60_000 }),
    /** Loopback, private and link-local targets: refused in production unless this is true. */
    allowPrivateTargets: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, default: {} },
);
export type WebhooksConfig = Static<typeof WebhooksConfigSchema>;
export const webhooksConfigSection: ConfigSection = {
  key: 'webhooks',
  schema: WebhooksConfigSchema,
  env: {
    QUARRY_WEBHOOKS_ENABLED: { path: 'webhooks.enabled', type: 'boolean' },
    QUARRY_WEBHOOKS_ENDPOINTS: { path: 'webhooks.endpoints', type: 'json', secret: true },
    QUARRY_WEBHOOKS_TIMEOUT_MS: { path: 'webhooks.timeoutMs', type: 'number' },
    QUARRY_WEBHOOKS_POLL_MS: { path: 'webhooks.pollMs', type: 'number' },
    QUARRY_WEBHOOKS_RETRY_BASE_MS: { path: 'webhooks.retryBaseMs', type: 'number' },
    QUARRY_WEBHOOKS_MAX_DELAY_MS: { path: 'webhooks.maxDelayMs', type: 'number' },
    QUARRY_WEBHOOKS_MAX_ATTEMPTS: { path: 'webhooks.maxAttempts', type: 'number' },
    QUARRY_WEBHOOKS_ALLOW_PRIVATE: { path: 'webhooks.allowPrivateTargets', type: 'boolean' },
  },
};

export const EVENTS = ['content.created', 'content.updated', 'content.deleted', 'ingestion.succeeded', 'ingestion.failed', 'ingestion.cancelled'];

/** `*`, `content.*` or an exact name. */
const matches = (patterns: string[], event: string) =>
  patterns.some((p) => p === '*' || p === event || (p.endsWith('.*') && event.startsWith(p.slice(0, -1))));

export const maskSecret = (secret: string) => `${'•'.repeat(8)}${secret.slice(-4)}`;

export interface EndpointInput {
  url?: string;
  events?: string[];
  models?: string[];
  secret?: string;
  enabled?: boolean;
}

export class WebhookService {
  readonly configured: Endpoint[];

  constructor(
    private readonly repo: WebhookRepository,
    readonly settings: WebhooksConfig,
    private readonly knownModels: string[],
  ) {
    this.configured = settings.endpoints.map((e, i) => {
      this.checkEndpoint(e, `webhooks.endpoints.${i}`);
      return {
        id: `whk_cfg_${createHash('sha256').update(`${i}:${e.url}`).digest('hex').slice(0, 16)}`,
        url: e.url,
        events: e.events,
        models: e.models ?? [],
        secret: e.secret,
        enabled: e.enabled ?? true,
        source: 'config' as const,
        createdAt: null,
        updatedAt: null,
      };
    });
  }

  private checkEndpoint(e: EndpointInput, prefix: string) {
    const bad = (field: string, message: string) => new AppError('validation_failed', `${prefix}.${field} ${message}`, { details: [{ field: `${prefix}.${field}`.replace(/^body\./, ''), message }] });
    if (e.url !== undefined) {
      let url: URL | undefined;
      try {
        url = new URL(e.url);
      } catch {
        url = undefined;
      }
      if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) throw bad('url', 'must be an http(s) URL without credentials');
    }
    for (const ev of e.events ?? [])
      if (!(ev === '*' || ev === 'content.*' || ev === 'ingestion.*' || EVENTS.includes(ev))) throw bad('events', `holds unknown event "${ev}"; known: ${EVENTS.join(', ')}, *, content.*, ingestion.*`);
    for (const m of e.models ?? []) if (!this.knownModels.includes(m)) throw bad('models', `names unknown model "${m}"`);
  }

  async allEndpoints(db?: AnyDb): Promise<Endpoint[]> {
    return [...this.configured, ...(await (db ? this.repo.on(db) : this.repo).endpoints())];
  }

  async endpoint(id: string): Promise<Endpoint> {
    const found = this.configured.find((e) => e.id === id) ?? (await this.repo.endpoint(id));
    if (!found) throw new AppError('webhook_not_found', `No webhook endpoint ${id}`);
    return found;
  }

  /**
   * Writes one outbox row per matching endpoint. Called with the transaction of the change, so the
   * event exists exactly when the change does. The payload is stored as the exact text later signed.
   */
  async enqueue(db: AnyDb, event: string, model: string | null, data: unknown): Promise<number> {
    if (!this.settings.enabled) return 0;
    const endpoints = (await this.allEndpoints(db)).filter((e) => e.enabled && matches(e.events, event) && (!model || !e.models.length || e.models.includes(model)));
    if (!endpoints.length) return 0;
    const now = nowIso();
    const payload = JSON.stringify({ event, model, data, timestamp: now });
    await this.repo.on(db).insertDeliveries(
      endpoints.map((e) => ({ id: newId('dlv'), endpointId: e.id, event, model, payload, status: 'pending' as const, attempts: 0, nextAttemptAt: now, lastStatusCode: null, lastError: null, durationMs: null, redeliveryOf: null, createdAt: now, deliveredAt: null })),
    );
    return endpoints.length;
  }

  present(e: Endpoint) {
    return { id: e.id, url: e.url, events: e.events, models: e.models, enabled: e.enabled, source: e.source, secret: maskSecret(e.secret), createdAt: e.createdAt, updatedAt: e.updatedAt };
  }

  async create(input: Required<Pick<EndpointInput, 'url' | 'events' | 'secret'>> & EndpointInput) {
    this.checkEndpoint(input, 'body');
    const now = nowIso();
    const endpoint: Endpoint = { id: newId('whk'), url: input.url, events: input.events, models: input.models ?? [], secret: input.secret, enabled: input.enabled ?? true, source: 'admin', createdAt: now, updatedAt: now };
    await this.repo.insertEndpoint(endpoint);
    return endpoint;
  }

  async update(id: string, input: EndpointInput) {
    const current = await this.endpoint(id);
    if (current.source === 'config') throw new AppError('webhook_read_only', `Endpoint ${id} comes from the configuration file; change it there`);
    this.checkEndpoint(input, 'body');
    const next: Endpoint = {
      ...current,
      ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      updatedAt: nowIso(),
    };
    await this.repo.updateEndpoint(next);
    return next;
  }

  async remove(id: string) {
    const current = await this.endpoint(id);
    if (current.source === 'config') throw new AppError('webhook_read_only', `Endpoint ${id} comes from the configuration file; remove it there`);
    await this.repo.deleteEndpoint(id);
  }

  async deliveries(q: { status?: string; endpointId?: string; page: number; limit: number }) {
    const rows = await this.repo.listDeliveries({ ...q, offset: offsetOf(q.page, q.limit) });
    return toPage(rows.map(presentDelivery), q.page, q.limit);
  }

  /** A new delivery (new id) of the same payload, due now. */
  async redeliver(id: string) {
    const original = await this.repo.delivery(id);
    if (!original) throw new AppError('delivery_not_found', `No webhook delivery ${id}`);
    await this.endpoint(original.endpointId);
    const now = nowIso();
    const copy = { ...original, id: newId('dlv'), status: 'pending' as const, attempts: 0, nextAttemptAt: now, lastStatusCode: null, lastError: null, durationMs: null, redeliveryOf: original.id, createdAt: now, deliveredAt: null };
    await this.repo.insertDeliveries([copy]);
    return presentDelivery({ ...copy, updatedAt: now });
  }
}

export const presentDelivery = (d: Delivery) => ({
  id: d.id,
  endpointId: d.endpointId,
  event: d.event,
  model: d.model,
  status: d.status,
  attempts: d.attempts,
  responseCode: d.lastStatusCode,
  error: d.lastError,
  durationMs: d.durationMs,
  nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
  redeliveryOf: d.redeliveryOf,
  createdAt: d.createdAt,
  deliveredAt: d.deliveredAt,
});
