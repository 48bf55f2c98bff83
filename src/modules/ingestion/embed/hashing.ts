import type { Embedder } from '../contracts.js';
import { contentWords } from './text-features.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over UTF-16 code units, continued from `h`: fast, stable across versions and platforms. */
function fnv1a(text: string, h = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}
const fnvChar = (h: number, code: number) => Math.imul(h ^ code, FNV_PRIME);

// Each feature is hashed as its family prefix followed by its text ("w:word", "b:one two",
// "c:<wor"); hashing continues from the prefix's state, so no feature string is ever built.
const UNIGRAM = fnv1a('w:');
const BIGRAM = fnv1a('b:');
const CHARGRAM = fnv1a('c:');
const LT = '<'.charCodeAt(0);
const GT = '>'.charCodeAt(0);
const SPACE = ' '.charCodeAt(0);

const count = (counts: Map<number, number>, h: number) => counts.set(h, (counts.get(h) ?? 0) + 1);

export interface HashingOptions {
  dimensions: number;
  /** Relative weights of the three feature families. */
  unigramWeight?: number;
  bigramWeight?: number;
  charGramWeight?: number;
  /** Character n-gram sizes taken from each word (with word-boundary marks). */
  charGramSizes?: number[];
}

/**
 * A model-free embedder: feature hashing ("the hashing trick") of word unigrams, word bigrams and
 * character n-grams, each with sublinear term frequency, signed buckets, then L2 normalisation.
 * Character n-grams give it a little morphology ("mutations" ~ "mutant"), which is what lifts it
 * above plain bag-of-words when fused with BM25. No downloads, deterministic, ~µs per chunk.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly weights: { uni: number; bi: number; char: number };
  private readonly charSizes: number[];

  constructor(options: HashingOptions) {
    this.dimensions = options.dimensions;
    this.weights = { uni: options.unigramWeight ?? 1, bi: options.bigramWeight ?? 0.5, char: options.charGramWeight ?? 0.35 };
    this.charSizes = options.charGramSizes ?? [4, 5];
    this.id = `builtin:hash-v1:${this.dimensions}`;
  }

  async embed(texts: string[], _purpose?: 'document' | 'query'): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    // Features are counted by their 32-bit hash: two features of one family with equal hashes
    // would land in the same bucket with the same sign anyway.
    const families = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()] as const;
    const [unigrams, bigrams, charGrams] = families;
    const tokens = contentWords(text);
    for (let i = 0; i < tokens.length; i++) {
      const word = tokens[i]!;
      count(unigrams, fnv1a(word, UNIGRAM));
      if (i + 1 < tokens.length) count(bigrams, fnv1a(tokens[i + 1]!, fnvChar(fnv1a(word, BIGRAM), SPACE)));
      // Character n-grams of "<word>", read in place: index 0 is the "<" mark, the last index the ">".
      const marked = word.length + 2;
      for (const n of this.charSizes)
        for (let j = 0; j + n <= marked; j++) {
          let h = CHARGRAM;
          for (let k = j; k < j + n; k++) h = fnvChar(h, k === 0 ? LT : k === marked - 1 ? GT : word.charCodeAt(k - 1));
          count(charGrams, h);
        }
    }
    const vector = new Float32Array(this.dimensions);
    const weights = [this.weights.uni, this.weights.bi, this.weights.char];
    families.forEach((counts, family) => {
      const weight = weights[family]!;
      for (const [hash, n] of counts) {
        const h = hash >>> 0;
        const sign = h & 0x80000000 ? -1 : 1;
        vector[h % this.dimensions]! += sign * weight * (1 + Math.log(n));
      }
    });
    let norm = 0;
    for (const v of vector) norm += v * v;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
    return vector;
  }
}
