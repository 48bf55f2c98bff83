import { Redis } from 'ioredis';
import type { CounterStore } from './store.js';

// One round trip, atomic across every node sharing this Redis.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

const UNDO_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'quarry:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  }

  async hit(key: string, windowMs: number) {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, windowMs)) as [number, number];
    return { count, resetMs: ttl };
  }

  async undo(key: string) {
    await this.redis.eval(UNDO_SCRIPT, 1, this.prefix + key);
  }

  async peek(key: string) {
    const [value, ttl] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
    if (value === null || ttl < 0) return null;
    return { count: Number(value), resetMs: ttl };
  }

  async set(key: string, count: number, ttlMs: number) {
    await this.redis.set(this.prefix + key, String(count), 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
