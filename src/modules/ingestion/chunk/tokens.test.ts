import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';

// The rule the scanner implements, written as the one regex it replaces (slower, but plain).
const PIECE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
const byRegex = (text: string) => (text.match(PIECE) ?? []).reduce((n, piece) => n + (piece.length > 6 ? Math.ceil(piece.length / 6) : 1), 0);

describe('countTokens', () => {
  it.each([
    ['', 0],
    ['hello world', 2],
    ['internationalization', 4],
    ['a.b(c);', 7],
    ['漢字かな', 4],
  ])('counts %j as %i', (text, expected) => {
    expect(countTokens(text)).toBe(expected);
  });

  it('agrees with the regex definition on mixed scripts, emoji, astral letters and odd spaces', () => {
    const texts = ['abc漢字 def', '漢字abc', 'naïve café — “quotes” 😀 𝒳x', 'x_y 123 …\u00a0tab\there\u2003end', '한국어 텍스트 and カタカナ', 'Ünïcödé wörds ñ'];
    for (const text of texts) expect([text, countTokens(text)]).toEqual([text, byRegex(text)]);
  });
});
