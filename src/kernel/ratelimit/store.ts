/** Fixed-window counters shared by rate limits and brute-force protection. */
export interface CounterStore {
  /** Counts one hit on `key` and returns the count in the current window and ms until it resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Takes one hit back (for `skipSuccessfulRequests`). */
  undo(key: string): Promise<void>;
  /** Reads without counting. */
  peek(key: string): Promise<{ count: number; resetMs: number } | null>;
  /** Sets a value with its own expiry (brute-force lock-outs). */
  set(key: string, count: number, ttlMs: number): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, { count: number; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number) {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) {
      entry = { count: 0, expiresAt: now + windowMs };
      this.entries.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetMs: entry.expiresAt - now };
  }

  async undo(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  async peek(key: string) {
    const entry = this.entries.get(key);
    const now = Date.now();
    if (!entry || entry.expiresAt <= now) return null;
    return { count: entry.count, resetMs: entry.expiresAt - now };
  }

  async set(key: string, count: number, ttlMs: number) {
    this.entries.set(key, { count, expiresAt: Date.now() + ttlMs });
  }

  async reset(key: string) {
    this.entries.delete(key);
  }

  async close() {
    clearInterval(this.sweeper);
  }

  private sweep() {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
