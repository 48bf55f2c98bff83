/** The counters of one run. Every field is in the API's `stats`, updated while the run goes. */
export class RunStats {
  pagesDiscovered = 0;
  pagesFetched = 0;
  pagesUnchanged = 0;
  pagesSkipped = 0;
  pagesFailed = 0;
  pagesRemoved = 0;
  documents = 0;
  chunks = 0;
  tokens = 0;
  bytes = 0;
  private readonly startedAt = Date.now();

  snapshot(): Record<string, number> {
    return {
      pagesDiscovered: this.pagesDiscovered,
      pagesFetched: this.pagesFetched,
      pagesUnchanged: this.pagesUnchanged,
      pagesSkipped: this.pagesSkipped,
      pagesFailed: this.pagesFailed,
      pagesRemoved: this.pagesRemoved,
      documents: this.documents,
      chunks: this.chunks,
      tokens: this.tokens,
      bytes: this.bytes,
      durationMs: Date.now() - this.startedAt,
    };
  }
}

/** Failed URLs of a run: kept up to `cap`, written in batches by the heartbeat. */
export class ErrorLog {
  private buffer: Array<{ url: string; status: number | null; reason: string; at: string }> = [];
  private written = 0;
  private total = 0;

  constructor(private readonly cap: number) {}

  add(url: string, status: number | null, reason: string) {
    this.total++;
    if (this.written + this.buffer.length >= this.cap) return;
    this.buffer.push({ url, status, reason, at: new Date().toISOString() });
  }

  /** Hands the unwritten entries to `write` with their first sequence number. */
  async flush(write: (firstSeq: number, entries: ErrorLog['buffer']) => Promise<void>) {
    if (!this.buffer.length) return;
    const entries = this.buffer;
    this.buffer = [];
    const first = this.written;
    this.written += entries.length;
    await write(first, entries);
  }
}
