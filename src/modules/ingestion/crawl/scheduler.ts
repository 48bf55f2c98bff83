/**
 * Decides which queued URL is fetched next: at most `concurrency` at once overall, at most
 * `perHost` at once per origin, and - when an origin has a politeness delay - one at a time with
 * the delay between the end of one request and the start of the next.
 */
export interface HostPolicy {
  /** Most requests at once to this origin right now. */
  limit(origin: string): number;
  delayMs(origin: string): number;
}

interface HostQueue<T> {
  origin: string;
  items: T[];
  head: number;
  active: number;
  nextStartAt: number;
}

export class Scheduler<T> {
  private readonly hosts = new Map<string, HostQueue<T>>();
  private readonly order: HostQueue<T>[] = [];
  private cursor = 0;
  private queued = 0;
  private inFlight = 0;
  private wake: (() => void) | null = null;

  constructor(
    private readonly concurrency: number,
    private readonly policy: HostPolicy,
    private readonly run: (item: T) => Promise<void>,
  ) {}

  push(origin: string, item: T) {
    let host = this.hosts.get(origin);
    if (!host) {
      host = { origin, items: [], head: 0, active: 0, nextStartAt: 0 };
      this.hosts.set(origin, host);
      this.order.push(host);
    }
    host.items.push(item);
    this.queued++;
    this.wake?.();
  }

  /** Runs until the queue is empty and nothing is in flight, or `signal` aborts (then waits for in-flight work). */
  async drain(signal: AbortSignal): Promise<void> {
    const running = new Set<Promise<void>>();
    const onAbort = () => this.wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        const wakeAt = this.startReady(running);
        if (this.inFlight === 0 && this.queued === 0) break;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          if (wakeAt !== null && this.inFlight < this.concurrency) setTimeout(resolve, Math.max(0, wakeAt - Date.now())).unref();
        });
        this.wake = null;
      }
      await Promise.allSettled(running);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Starts what may start now; returns when the earliest delayed origin becomes ready (or null). */
  private startReady(running: Set<Promise<void>>): number | null {
    let wakeAt: number | null = null;
    let idleRounds = 0;
    while (this.inFlight < this.concurrency && this.queued > 0 && idleRounds < this.order.length) {
      const host = this.order[this.cursor % this.order.length]!;
      this.cursor = (this.cursor + 1) % this.order.length;
      const now = Date.now();
      if (host.head >= host.items.length || host.active >= this.policy.limit(host.origin)) {
        idleRounds++;
        continue;
      }
      if (host.nextStartAt > now) {
        wakeAt = wakeAt === null ? host.nextStartAt : Math.min(wakeAt, host.nextStartAt);
        idleRounds++;
        continue;
      }
      idleRounds = 0;
      const item = host.items[host.head]!;
      host.items[host.head++] = undefined as T; // let the item be collected
      if (host.head > 1024 && host.head * 2 > host.items.length) {
        host.items = host.items.slice(host.head);
        host.head = 0;
      }
      this.queued--;
      this.inFlight++;
      host.active++;
      const task: Promise<void> = this.run(item).finally(() => {
        host.active--;
        this.inFlight--;
        const delay = this.policy.delayMs(host.origin);
        if (delay > 0) host.nextStartAt = Date.now() + delay;
        running.delete(task);
        this.wake?.();
      });
      running.add(task);
    }
    return wakeAt;
  }
}
