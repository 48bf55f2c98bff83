import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Agent, fetch as undiciFetch } from 'undici';
import { assertLiteralHostAllowed, guardedLookup } from '../ingestion/crawl/ssrf.js';
import { nowIso } from '../../kernel/db/ids.js';
import type { Delivery, Endpoint, WebhookRepository } from './repository.js';
import type { WebhookService, WebhooksConfig } from './service.js';

const USER_AGENT = 'Quarry-Webhooks/1';
const BATCH = 10;

export const hmacHex = (secret: string, text: string) => `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;

/**
 * The body sent: the stored payload text with `"signature"` (HMAC of that text) inserted before its
 * closing brace. The header signature covers the whole body, GitHub-style.
 */
export function signedBody(payload: string, secret: string): { body: string; header: string } {
  const body = `${payload.slice(0, -1)},"signature":"${hmacHex(secret, payload)}"}`;
  return { body, header: hmacHex(secret, body) };
}

/** Delay before attempt `n + 1` after `n` failures: base × 4^(n-1), capped. Defaults span ~44 hours over 12 attempts. */
export const backoffMs = (failures: number, s: Pick<WebhooksConfig, 'retryBaseMs' | 'maxDelayMs'>) => Math.min(s.maxDelayMs, s.retryBaseMs * 4 ** Math.max(0, failures - 1));

/** Polls the outbox; leases make each delivery go to one worker even across processes. */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** With private targets refused, every connection's DNS answer is checked (no rebinding window). */
  private readonly agent: Agent | undefined;

  constructor(
    private readonly repo: WebhookRepository,
    private readonly service: WebhookService,
    private readonly log: FastifyBaseLogger,
    private readonly allowPrivate: boolean,
  ) {
    this.agent = allowPrivate ? undefined : new Agent({ connect: { lookup: guardedLookup() } });
  }

  start() {
    if (!this.service.settings.enabled || !this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Look now rather than at the next tick (after a change was committed). */
  kick() {
    if (this.stopped || this.running) return;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.agent?.close();
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((err) => this.log.error({ err }, 'webhook delivery loop failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.schedule(this.service.settings.pollMs);
        });
    }, ms);
    this.timer.unref?.();
  }

  private async tick() {
    const settings = this.service.settings;
    for (;;) {
      const now = nowIso();
      const ids = await this.repo.due(now, BATCH);
      if (!ids.length || this.stopped) return;
      const until = new Date(Date.now() + settings.leaseMs).toISOString();
      const leased = (await Promise.all(ids.map((id) => this.repo.lease(id, now, until)))).filter((d): d is Delivery => !!d);
      if (!leased.length) return;
      const endpoints = await this.service.allEndpoints();
      await Promise.all(leased.map((d) => this.deliver(d, endpoints.find((e) => e.id === d.endpointId))));
    }
  }

  private async deliver(d: Delivery, endpoint: Endpoint | undefined) {
    const settings = this.service.settings;
    const attempts = d.attempts + 1;
    const started = Date.now();
    let code: number | null = null;
    let error: string | null = null;
    if (!endpoint) error = 'The endpoint no longer exists';
    else {
      const { body, header } = signedBody(d.payload, endpoint.secret);
      try {
        if (!this.allowPrivate) assertLiteralHostAllowed(new URL(endpoint.url).hostname);
        const res = await undiciFetch(endpoint.url, {
          ...(this.agent ? { dispatcher: this.agent } : {}),
          method: 'POST',
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(settings.timeoutMs),
          headers: {
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            'x-quarry-event': d.event,
            'x-quarry-delivery': d.id,
            'x-quarry-signature-256': header,
          },
        });
        code = res.status;
        await res.body?.cancel().catch(() => {});
        if (code < 200 || code >= 300) error = `The receiver answered ${code}`;
      } catch (err) {
        const cause = (err as Error & { cause?: Error }).cause;
        const blocked = [err, cause].find((e) => (e as { code?: string } | undefined)?.code === 'QUARRY_BLOCKED_ADDRESS') as Error | undefined;
        if (blocked) error = `Target refused: ${blocked.message.replace(/\s*\(set QUARRY_CRAWL_ALLOW_PRIVATE.*\)$/, '')} (set webhooks.allowPrivateTargets to allow)`;
        else error = (err as Error).name === 'TimeoutError' ? `No answer within ${settings.timeoutMs} ms` : `Request failed: ${cause?.message ?? (err as Error).message}`;
      }
    }
    const durationMs = Date.now() - started;
    const done = !error;
    const giveUp = !done && (!endpoint || attempts >= settings.maxAttempts);
    await this.repo.recordAttempt(d.id, {
      status: done ? 'succeeded' : giveUp ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: done || giveUp ? nowIso() : new Date(Date.now() + backoffMs(attempts, settings)).toISOString(),
      lastStatusCode: code,
      lastError: error,
      durationMs,
      at: nowIso(),
    });
    if (error) this.log.warn({ delivery: d.id, endpoint: d.endpointId, attempts, error }, giveUp ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry');
  }
}
