/**
 * Fast token estimate, close to BPE tokenizers (cl100k-style) on prose and code without shipping a
 * vocabulary: each word-like run counts one token per started 6 characters, each CJK/kana/hangul
 * character one token, each other non-space character (punctuation, operators) one token.
 * English prose comes out near 1.3 tokens/word (~4 characters/token), code a little higher.
 *
 * A char-code scanner rather than one Unicode regex: it runs several times per chunk, and ASCII
 * (most of what is crawled) is classified by a table; only other characters go to a regex.
 */
const SPACE = 0;
const WORD = 1;
const CJK = 2;
const OTHER = 3;

const IS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const IS_WORD = /[\p{L}\p{N}_]/u;
const IS_SPACE = /\s/u;

const ASCII = new Uint8Array(128).map((_, code) => {
  const ch = String.fromCharCode(code);
  return IS_SPACE.test(ch) ? SPACE : IS_WORD.test(ch) ? WORD : OTHER;
});

function classify(char: string): number {
  return IS_CJK.test(char) ? CJK : IS_WORD.test(char) ? WORD : IS_SPACE.test(char) ? SPACE : OTHER;
}

export function countTokens(text: string): number {
  let n = 0;
  let run = 0; // UTF-16 length of the word run in progress
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    let kind: number;
    let width = 1;
    if (code < 128) kind = ASCII[code]!;
    else {
      const point = text.codePointAt(i)!;
      width = point > 0xffff ? 2 : 1;
      kind = classify(String.fromCodePoint(point));
    }
    // A run that started on a word character goes on through CJK characters, as `[\p{L}\p{N}_]+` does.
    if (kind === WORD || (kind === CJK && run > 0)) run += width;
    else {
      if (run > 0) n += run > 6 ? Math.ceil(run / 6) : 1;
      run = 0;
      if (kind !== SPACE) n += 1;
    }
    i += width;
  }
  if (run > 0) n += run > 6 ? Math.ceil(run / 6) : 1;
  return n;
}
