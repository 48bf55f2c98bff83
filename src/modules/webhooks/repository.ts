import { readJson, typed, writeJson, type AnyDb } from '../../kernel/db/dialect.js';

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  models: string[];
  secret: string;
  enabled: boolean;
  source: 'config' | 'admin';
  createdAt: string | null;
  updatedAt: string | null;
}

export interface Delivery {
  id: string;
  endpointId: string;
  event: string;
  model: string | null;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastStatusCode: number | null;
  lastError: string | null;
  durationMs: number | null;
  redeliveryOf: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
}

interface EndpointRow {
  id: string;
  url: string;
  events: unknown;
  models: unknown;
  secret: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event: string;
  model: string | null;
  payload: string;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  duration_ms: number | null;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

type Tables = { webhook_endpoints: EndpointRow; webhook_deliveries: DeliveryRow };

const toEndpoint = (r: EndpointRow): Endpoint => ({
  id: r.id,
  url: r.url,
  events: readJson(r.events, []),
  models: readJson(r.models, []),
  secret: r.secret,
  enabled: Number(r.enabled) === 1,
  source: 'admin',
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  endpointId: r.endpoint_id,
  event: r.event,
  model: r.model,
  payload: r.payload,
  status: r.status,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  lastError: r.last_error,
  durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
  redeliveryOf: r.redelivery_of,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deliveredAt: r.delivered_at,
});

export class WebhookRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<Tables>(db);
  }

  on = (trx: AnyDb) => new WebhookRepository(trx);

  async endpoints(): Promise<Endpoint[]> {
    return (await this.db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute()).map(toEndpoint);
  }

  async endpoint(id: string): Promise<Endpoint | undefined> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toEndpoint(row);
  }

  async insertEndpoint(e: Endpoint) {
    await this.db
      .insertInto('webhook_endpoints')
      .values({ id: e.id, url: e.url, events: writeJson(e.events), models: writeJson(e.models), secret: e.secret, enabled: e.enabled ? 1 : 0, created_at: e.createdAt!, updated_at: e.updatedAt! })
      .execute();
  }

  async updateEndpoint(e: Endpoint) {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ url: e.url, events: writeJson(e.events), models: writeJson(e.models), secret: e.secret, enabled: e.enabled ? 1 : 0, updated_at: e.updatedAt! })
      .where('id', '=', e.id)
      .execute();
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    return Number((await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
  }

  async insertDeliveries(rows: Array<Omit<Delivery, 'updatedAt'>>) {
    if (!rows.length) return;
    await this.db
      .insertInto('webhook_deliveries')
      .values(
        rows.map((d) => ({
          id: d.id,
          endpoint_id: d.endpointId,
          event: d.event,
          model: d.model,
          payload: d.payload,
          status: d.status,
          attempts: d.attempts,
          next_attempt_at: d.nextAttemptAt,
          lease_until: null,
          last_status_code: null,
          last_error: null,
          duration_ms: null,
          redelivery_of: d.redeliveryOf,
          created_at: d.createdAt,
          updated_at: d.createdAt,
          delivered_at: null,
        })),
      )
      .execute();
  }

  async delivery(id: string): Promise<Delivery | undefined> {
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toDelivery(row);
  }

  async listDeliveries(q: { status?: string; endpointId?: string; limit: number; offset: number }): Promise<Delivery[]> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll();
    if (q.status) query = query.where('status', '=', q.status as Delivery['status']);
    if (q.endpointId) query = query.where('endpoint_id', '=', q.endpointId);
    return (await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).offset(q.offset).execute()).map(toDelivery);
  }

  /** Ids of pending deliveries that are due and not leased by a live worker. */
  async due(now: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Compare-and-set: exactly one worker (of any process) wins the lease. */
  async lease(id: string, now: string, until: string): Promise<Delivery | undefined> {
    const r = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: until })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1 ? this.delivery(id) : undefined;
  }

  async recordAttempt(id: string, fields: { status: Delivery['status']; attempts: number; nextAttemptAt: string; lastStatusCode: number | null; lastError: string | null; durationMs: number | null; at: string }) {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: fields.status,
        attempts: fields.attempts,
        next_attempt_at: fields.nextAttemptAt,
        lease_until: null,
        last_status_code: fields.lastStatusCode,
        last_error: fields.lastError,
        duration_ms: fields.durationMs,
        updated_at: fields.at,
        ...(fields.status === 'succeeded' ? { delivered_at: fields.at } : {}),
      })
      .where('id', '=', id)
      .execute();
  }
}
