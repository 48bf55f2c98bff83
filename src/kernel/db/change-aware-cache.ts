/**
 * A read cache that is exact: every entry is dropped the moment the database changes (a write by
 * this process or a commit by any other, as told by `changeToken`). Where the database cannot tell
 * cheaply (no `changeToken`, i.e. PostgreSQL), it does not cache at all.
 */
export class ChangeAwareCache<V> {
  private readonly entries = new Map<string, V>();
  private token: string | undefined;

  constructor(
    private readonly changeToken: (() => string) | undefined,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.changeToken) return load();
    const before = this.changeToken();
    if (before !== this.token) {
      this.entries.clear();
      this.token = before;
    } else if (this.entries.has(key)) {
      return this.entries.get(key) as V;
    }
    const value = await load();
    // Only keep what was read while nothing changed underneath.
    if (this.changeToken() === before && this.entries.size < this.maxEntries) this.entries.set(key, value);
    return value;
  }
}
