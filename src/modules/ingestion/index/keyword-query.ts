import { contentWords } from '../embed/text-features.js';

/** At most this many distinct terms go into a keyword query (long pasted text stays fast). */
const MAX_TERMS = 32;

/**
 * Turns free user text into the terms of an OR query. Only letter/digit runs survive, so no user
 * input can ever be FTS5 or tsquery syntax; stopwords are dropped because with OR semantics they
 * match nearly everything and only cost time.
 */
export function queryTerms(text: string): string[] {
  const terms = [...new Set(contentWords(text))];
  if (terms.length) return terms.slice(0, MAX_TERMS);
  // A query made only of stopwords ("the who") still deserves an answer.
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_TERMS);
}

const idPhrase = (id: string) => `"${id.replace(/[^A-Za-z0-9_]/g, ' ')}"`;

/**
 * FTS5 MATCH expression: quoted terms OR-ed within the text columns, optionally narrowed to a
 * project (and sources) through the `scope` column, which holds those ids as tokens.
 */
export function ftsMatch(terms: string[], projectId?: string, sourceIds?: string[]): string {
  const quoted = terms.map((t) => `"${t}"`).join(' OR ');
  if (!projectId) return `{title heading text} : (${quoted})`;
  const sources = sourceIds?.length ? ` AND scope : (${sourceIds.map(idPhrase).join(' OR ')})` : '';
  return `scope : ${idPhrase(projectId)}${sources} AND {title heading text} : (${quoted})`;
}

/** PostgreSQL to_tsquery input: terms are bare letter/digit runs, OR-ed. */
export const tsQuery = (terms: string[]) => terms.join(' | ');
