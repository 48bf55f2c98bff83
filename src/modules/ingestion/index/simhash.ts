/**
 * Sign bits of a fixed random rotation (random ±1 signs, then a Walsh–Hadamard transform): a
 * SimHash whose hamming distance estimates the angle between vectors. Plain sign quantisation
 * fails on sparse vectors (the built-in embedder's are mostly zeros); the rotation spreads every
 * vector over all dimensions first. Deterministic: the same vector always gets the same bits.
 */
export const simhashBits = (dimensions: number) => 2 ** Math.ceil(Math.log2(Math.max(8, dimensions)));

const signCache = new Map<number, Int8Array>();

function signsFor(n: number): Int8Array {
  let signs = signCache.get(n);
  if (!signs) {
    signs = new Int8Array(n);
    let state = 0x9e3779b9;
    for (let i = 0; i < n; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      signs[i] = state & 0x10000 ? 1 : -1;
    }
    signCache.set(n, signs);
  }
  return signs;
}

export function simhash(vector: Float32Array): Buffer {
  const n = simhashBits(vector.length);
  const signs = signsFor(n);
  const x = new Float64Array(n);
  for (let i = 0; i < vector.length; i++) x[i] = vector[i]! * signs[i]!;
  for (let h = 1; h < n; h *= 2)
    for (let i = 0; i < n; i += h * 2)
      for (let j = i; j < i + h; j++) {
        const a = x[j]!;
        const b = x[j + h]!;
        x[j] = a + b;
        x[j + h] = a - b;
      }
  const out = Buffer.alloc(n / 8);
  for (let i = 0; i < n; i++) if (x[i]! > 0) out[i >> 3]! |= 1 << (i & 7);
  return out;
}
