/**
 * Retrieval quality and latency of the knowledge index.
 *
 *   npm run eval:search [-- --skip-latency] [--dims 512] [--rrf-k 60] [--candidates 50]
 *                        [--keyword-weight 1] [--vector-weight 1] [--max-postings 50000]
 *                        [--latency-chunks 100000]
 *
 * 1. SciFact (../shared/eval/scifact, BEIR): every abstract goes through IndexService.upsertDocuments
 *    as one document with one chunk (title + abstract; SciFact abstracts are ~200 words, one chunk
 *    each is what the chunker makes of them too), embedded by the configured built-in embedder.
 *    nDCG@10 (binary gains, trec_eval ndcg_cut.10) over the train queries, per search mode.
 * 2. Latency: ~100k synthetic chunks (SciFact sentences regrouped) through the same path, then
 *    p50/p95 of IndexService.search per mode, in process (no HTTP).
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { projectMigrations } from '../src/modules/projects/migrations.js';
import { sourceMigrations } from '../src/modules/sources/migrations.js';
import { ingestionMigrations } from '../src/modules/ingestion/migrations.js';
import { indexMigrations } from '../src/modules/ingestion/index/migrations.js';
import { IndexRepository } from '../src/modules/ingestion/index/repository.js';
import { IndexService, type UpsertDocumentInput } from '../src/modules/ingestion/index/service.js';
import { searchSettingsWithDefaults } from '../src/modules/ingestion/index/settings.js';
import { VectorStore } from '../src/modules/ingestion/index/vector-store.js';
import { createEmbedder } from '../src/modules/ingestion/embed/settings.js';
import type { SearchMode } from '../src/modules/ingestion/contracts.js';

const { values: args } = parseArgs({
  options: {
    'skip-latency': { type: 'boolean' },
    'skip-quality': { type: 'boolean' },
    dims: { type: 'string' },
    'rrf-k': { type: 'string' },
    candidates: { type: 'string' },
    'keyword-weight': { type: 'string' },
    'vector-weight': { type: 'string' },
    'max-postings': { type: 'string' },
    'latency-chunks': { type: 'string', default: '100000' },
    /** Keep the latency database here and reuse it on the next run (skips re-indexing). */
    'latency-dir': { type: 'string' },
  },
});
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const DATA = join(import.meta.dirname, '..', '..', 'shared', 'eval', 'scifact');
const MODES: SearchMode[] = ['keyword', 'semantic', 'hybrid'];

interface Abstract { _id: string; title: string; text: string }
const readJsonl = <T>(path: string): T[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

async function openIndex(keepIn?: string) {
  const dir = keepIn ?? mkdtempSync(join(tmpdir(), 'quarry-eval-'));
  const database = await openDatabase({ dataDir: dir });
  await migrateToLatest(database.db, { ...projectMigrations, ...sourceMigrations, ...ingestionMigrations, ...indexMigrations });
  const now = new Date().toISOString();
  const reused = (await sql<{ n: number }>`select count(*) as n from projects`.execute(database.db)).rows[0]!.n > 0;
  if (!reused) await sql`insert into projects (id, name, status, metadata, features, created_at, updated_at) values ('prj_eval', 'eval', 'active', '{}', '{}', ${now}, ${now})`.execute(database.db);
  if (!reused) await sql`insert into sources (id, project_id, type, name, config, stats, created_at, updated_at) values ('src_eval', 'prj_eval', 'web', 'eval', '{}', '{}', ${now}, ${now})`.execute(database.db);
  const embedder = createEmbedder(num(args.dims) ? { dimensions: num(args.dims) } : {});
  VectorStore.loadSqliteExtension(database.sqlite);
  const store = new VectorStore(database.db, embedder.dimensions);
  await store.ensure();
  const settings = searchSettingsWithDefaults({
    ...(num(args['rrf-k']) ? { rrfK: num(args['rrf-k'])! } : {}),
    ...(num(args.candidates) ? { candidates: num(args.candidates)! } : {}),
    ...(args['keyword-weight'] ? { keywordWeight: num(args['keyword-weight'])! } : {}),
    ...(args['vector-weight'] ? { vectorWeight: num(args['vector-weight'])! } : {}),
    ...(args['max-postings'] ? { maxPostings: num(args['max-postings'])! } : {}),
  });
  const index = new IndexService(new IndexRepository(database.db), embedder, store, settings);
  const close = async () => {
    await database.close();
    if (!keepIn) rmSync(dir, { recursive: true, force: true });
  };
  return { index, embedder, reused, close };
}

const doc = (url: string, title: string, texts: string[]): UpsertDocumentInput => ({
  sourceId: 'src_eval',
  projectId: 'prj_eval',
  runId: 'run_eval',
  url,
  page: { url, canonicalUrl: null, title, description: null, language: 'en', markdown: texts.join('\n\n'), links: [] },
  chunks: texts.map((text, position) => ({ position, text, headingPath: [], tokens: text.split(/\s+/).length })),
});

async function load(index: IndexService, docs: UpsertDocumentInput[]) {
  const started = performance.now();
  for (let i = 0; i < docs.length; i += 200) await index.upsertDocuments(docs.slice(i, i + 200));
  const seconds = (performance.now() - started) / 1000;
  const chunks = docs.reduce((n, d) => n + d.chunks.length, 0);
  return { seconds, docsPerSecond: docs.length / seconds, chunksPerSecond: chunks / seconds };
}

/** trec_eval ndcg_cut.10 with binary gains: DCG = Σ rel / log2(rank + 1). */
function ndcgAt10(ranked: string[], relevant: Set<string>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => { if (relevant.has(id)) dcg += 1 / Math.log2(i + 2); });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

async function quality() {
  const corpus = readJsonl<Abstract>(join(DATA, 'corpus.jsonl'));
  const queries = new Map(readJsonl<{ _id: string; text: string }>(join(DATA, 'queries.train.jsonl')).map((q) => [q._id, q.text]));
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(join(DATA, 'qrels', 'train.tsv'), 'utf8').split('\n').slice(1)) {
    const [qid, docId, score] = line.split('\t');
    if (!qid || !docId || Number(score) <= 0) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Set());
    qrels.get(qid)!.add(docId);
  }
  const { index, embedder, close } = await openIndex();
  const loaded = await load(index, corpus.map((a) => doc(`scifact:${a._id}`, a.title, [a.text])));
  console.log(`SciFact: ${corpus.length} abstracts indexed in ${loaded.seconds.toFixed(1)} s (${loaded.docsPerSecond.toFixed(0)} docs/s), embedder ${embedder.id}`);
  console.log(`${qrels.size} train queries with judgements; nDCG@10 (binary, trec_eval ndcg_cut.10):`);
  for (const mode of MODES) {
    let total = 0;
    for (const [qid, relevant] of qrels) {
      const { data } = await index.search('prj_eval', { query: queries.get(qid)!, limit: 10, mode });
      total += ndcgAt10([...new Set(data.map((h) => h.url.slice('scifact:'.length)))], relevant);
    }
    console.log(`  ${mode.padEnd(8)} ${(total / qrels.size).toFixed(4)}`);
  }
  await close();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function latency(target: number) {
  const corpus = readJsonl<Abstract>(join(DATA, 'corpus.jsonl'));
  const sentences = corpus.flatMap((a) => a.text.split(/(?<=\.)\s+/)).filter((s) => s.length > 20);
  const docs: UpsertDocumentInput[] = [];
  let made = 0;
  // Regroup sentences into ~3-sentence chunks, 5 chunks per synthetic document, with a stride
  // that changes per round so every chunk differs from every other.
  for (let round = 0; made < target; round++)
    for (let d = 0; made < target && d * 15 < sentences.length; d++) {
      const texts: string[] = [];
      for (let c = 0; c < 5 && made < target; c++, made++) {
        const at = (d * 15 + c * 3 + round * 7) % sentences.length;
        texts.push(sentences.slice(at, at + 3 + (round % 2)).join(' '));
      }
      docs.push(doc(`synthetic:${round}:${d}`, corpus[(d + round) % corpus.length]!.title, texts));
    }
  const { index, reused, close } = await openIndex(args['latency-dir']);
  if (reused) console.log(`\nLatency: reusing the index in ${args['latency-dir']}`);
  else {
    const loaded = await load(index, docs);
    console.log(`\nLatency: ${made} chunks in ${docs.length} documents indexed in ${loaded.seconds.toFixed(1)} s (${loaded.docsPerSecond.toFixed(0)} docs/s, ${loaded.chunksPerSecond.toFixed(0)} chunks/s)`);
  }
  const queries = readJsonl<{ _id: string; text: string }>(join(DATA, 'queries.train.jsonl')).slice(0, 200).map((q) => q.text);
  for (const mode of MODES) {
    for (const q of queries.slice(0, 10)) await index.search('prj_eval', { query: q, limit: 10, mode }); // warm-up
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (const q of queries) {
      const started = performance.now();
      await index.search('prj_eval', { query: q, limit: 10, mode });
      times.push(performance.now() - started);
    }
    const cpuMs = (({ user, system }) => (user + system) / 1000 / queries.length)(process.cpuUsage(cpu));
    times.sort((a, b) => a - b);
    // CPU time per query is printed too: on a shared machine wall-clock figures include waiting.
    console.log(`  ${mode.padEnd(8)} p50 ${percentile(times, 0.5).toFixed(1)} ms  p95 ${percentile(times, 0.95).toFixed(1)} ms  CPU ${cpuMs.toFixed(1)} ms/query  (${queries.length} queries)`);
  }
  await close();
}

if (!args['skip-quality']) await quality();
if (!args['skip-latency']) await latency(Number(args['latency-chunks']));
