/**
 * Reciprocal-rank fusion: each list contributes weight / (k + rank) for every item it ranks
 * (rank from 1). Scores of different scales (bm25, cosine) never need calibrating against each other.
 */
export function reciprocalRankFusion(lists: Array<{ ids: string[]; weight: number }>, k: number): Array<{ id: string; score: number }> {
  const scores = new Map<string, number>();
  for (const { ids, weight } of lists)
    ids.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + weight / (k + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
