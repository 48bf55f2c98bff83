import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Measured {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  /** Server CPU (user + system) per request: steadier than req/s on a shared machine. */
  cpuMicrosPerRequest: number;
}

/** utime + stime of a process in microseconds, from /proc (Linux). */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // clock ticks are 1/100 s here
  } catch {
    return Number.NaN;
  }
}

/** Starts a server process and waits until it answers on `readyUrl`. */
export async function startProcess(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(readyUrl)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`server did not start: ${args.join(' ')}`);
}

export async function measure(
  name: string,
  url: string,
  options: { headers?: Record<string, string>; pid?: number; seconds?: number } = {},
): Promise<Measured> {
  const headers = options.headers ?? {};
  const seconds = options.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  await autocannon({ url, connections: 100, duration: 2, headers }); // warm-up (JIT, caches)
  const cpuBefore = options.pid ? cpuMicros(options.pid) : Number.NaN;
  const result = await autocannon({ url, connections: 100, duration: seconds, headers });
  const cpu = options.pid ? cpuMicros(options.pid) - cpuBefore : Number.NaN;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    cpuMicrosPerRequest: cpu / Math.max(1, result.requests.total),
  };
}

export function report(rows: Measured[], baseline: Measured) {
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${String(r.p99Ms).padStart(4)} ms   ${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1).padStart(5)}% of baseline   server CPU ${r.cpuMicrosPerRequest.toFixed(0).padStart(4)} µs/req${r.non2xx ? `   (${r.non2xx} non-2xx!)` : ''}`,
  );
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
