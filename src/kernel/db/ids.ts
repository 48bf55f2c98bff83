import { randomBytes } from 'node:crypto';

// Crockford base32, lower-case: ids sort by creation time as plain strings (ULID layout).
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

function encode(bytes: Uint8Array, chars: number): string {
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

function increment(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] !== 255) {
      next[i] = next[i]! + 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

/** A sortable id with a type prefix, e.g. `prj_01jd…`. Monotonic within one process. */
export function newId(prefix: string): string {
  const now = Date.now();
  lastRandom = now === lastTime ? increment(lastRandom) : new Uint8Array(randomBytes(10));
  lastTime = now;
  const time = new Uint8Array(6);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    time[i] = t % 256;
    t = Math.floor(t / 256);
  }
  return `${prefix}_${encode(time, 10)}${encode(lastRandom, 16)}`;
}

export const nowIso = () => new Date().toISOString();
