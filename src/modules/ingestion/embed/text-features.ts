/**
 * Text normalisation shared by the built-in embedder and the keyword query builder: lower-cased
 * Unicode word runs with English stopwords removed. Kept dependency-free and fast (it runs for
 * every chunk of every page).
 */
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves also may might must shall us via vs upon whether within without'
  ).split(' '),
);

export const isStopword = (word: string) => STOPWORDS.has(word);

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased word runs, stopwords kept (callers decide). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Lower-cased word runs without stopwords or 1-character tokens. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOPWORDS.has(w));
}
