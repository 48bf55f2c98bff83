/**
 * Identity figures, as ratios to a baseline measured in the same run:
 * - sign-in timing equalisation: median time of "unknown e-mail" ÷ "wrong password" (≈ 1 is the goal);
 * - cost of each credential on GET /v1/projects?limit=1: req/s with a session cookie (both strategies)
 *   and a bearer JWT, relative to an API key on the same route.
 * Run: npm run bench:identity
 */
import autocannon from 'autocannon';
import { startTestApp, type TestApp } from '../test/helpers/app.js';

const PASSWORD = 'correct horse battery staple';

/** Medians of two operations, interleaved so machine load drifts onto both alike. */
async function medians(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < n; i++)
    for (const [j, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      times[j]!.push(performance.now() - start);
    }
  return times.map((list) => list.sort((x, y) => x - y)[Math.floor(n / 2)]!) as [number, number];
}

async function rps(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: 8, duration: 4 });
  if (result.non2xx) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

async function run(strategy: 'database' | 'jwt') {
  const t: TestApp = await startTestApp({ logLevel: 'silent', rateLimit: { enabled: false }, auth: { session: { strategy }, bruteForce: { freeRetries: 1e6, failuresBeforeBrute: 1e6 } } }, { workers: false });
  try {
    const users = t.quarry.services.users;
    const user = await users.create({ email: 'bench@example.com', name: 'bench', password: PASSWORD, role: 'admin' });
    const { token } = await users.issueToken(user);
    const session = await fetch(`${t.url}/api/auth/session`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!;
    const signIn = (email: string) => () => fetch(`${t.url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'a wrong password' }) });
    const [wrong, unknown] = await medians(31, signIn('bench@example.com'), signIn('nobody@example.com'));
    const route = `${t.url}/v1/projects?limit=1`;
    const key = await rps(route, { authorization: `Bearer ${t.adminKey}` });
    const jwt = await rps(route, { authorization: `Bearer ${token}` });
    const viaCookie = await rps(route, { cookie });
    return { strategy, wrong, unknown, key, jwt, viaCookie };
  } finally {
    await t.close();
  }
}

for (const strategy of ['database', 'jwt'] as const) {
  const r = await run(strategy);
  console.log(`session strategy ${strategy}`);
  console.log(`  sign-in median: wrong password ${r.wrong.toFixed(1)} ms, unknown e-mail ${r.unknown.toFixed(1)} ms, ratio ${(r.unknown / r.wrong).toFixed(2)}`);
  console.log(`  req/s: API key ${r.key.toFixed(0)} (baseline), bearer JWT ${r.jwt.toFixed(0)} (${(r.jwt / r.key).toFixed(2)}x), session cookie ${r.viaCookie.toFixed(0)} (${(r.viaCookie / r.key).toFixed(2)}x)`);
}
