import { AppError } from '../../kernel/errors/app-error.js';
import type { CounterStore } from '../../kernel/ratelimit/store.js';
import type { BruteForceSettings } from './config.js';

// Failures are remembered this long after the first one (or until a success).
const FAILURE_WINDOW_MS = 24 * 3600_000;

/**
 * Failed sign-ins are counted per e-mail (after `freeRetries`) and per IP (after
 * `failuresBeforeBrute`). Each failure past the free ones locks that key for a wait that doubles
 * from `minWait` up to `maxWait`; while locked every attempt answers 429, even with the right password.
 */
export class BruteForceGuard {
  constructor(
    private readonly counters: CounterStore,
    private readonly settings: BruteForceSettings,
  ) {}

  private keys(email: string, ip: string) {
    return [
      { name: `bf:email:${email.trim().toLowerCase()}`, free: this.settings.freeRetries },
      { name: `bf:ip:${ip}`, free: this.settings.failuresBeforeBrute },
    ];
  }

  /** Throws `too_many_attempts` with Retry-After while either key is locked. */
  async check(email: string, ip: string) {
    let waitMs = 0;
    for (const key of this.keys(email, ip)) {
      const lock = await this.counters.peek(`${key.name}:lock`);
      if (lock) waitMs = Math.max(waitMs, lock.resetMs);
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError('too_many_attempts', `Too many failed sign-in attempts; retry in ${seconds} s`, { headers: { 'Retry-After': String(seconds) } });
    }
  }

  async failed(email: string, ip: string) {
    for (const key of this.keys(email, ip)) {
      const { count } = await this.counters.hit(`${key.name}:failures`, FAILURE_WINDOW_MS);
      const over = count - key.free;
      if (over > 0) await this.counters.set(`${key.name}:lock`, 1, this.waitFor(over));
    }
  }

  async succeeded(email: string, ip: string) {
    for (const key of this.keys(email, ip)) {
      await this.counters.reset(`${key.name}:failures`);
      await this.counters.reset(`${key.name}:lock`);
    }
  }

  /** The wait after the n-th failure past the free ones: minWait, 2×, 4×, … capped at maxWait. */
  waitFor(over: number): number {
    const { minWait, maxWait } = this.settings;
    return Math.min(maxWait, minWait * 2 ** Math.min(over - 1, 30));
  }
}
