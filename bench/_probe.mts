import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, startProcess } from './lib.js';
const dataDir = mkdtempSync(join(tmpdir(), 'qb-'));
const env = { QUARRY_DATA_DIR: dataDir, QUARRY_LOG_LEVEL: process.env.LL ?? 'warn', PORT: '3931', HOST: '127.0.0.1' };
const key = execFileSync(process.execPath, ['bin/quarry.js', 'keys', 'create', '--name', 'b', '--permissions', '{"admin":true,"rateLimit":{"requests":1000000000,"windowMs":900000}}'], { env: { ...process.env, ...env } }).toString().trim();
const app = await startProcess(['bin/quarry.js', 'serve'], env, 'http://127.0.0.1:3931/health');
const headers = { authorization: `Bearer ${key}` };
const res = await fetch('http://127.0.0.1:3931/v1/projects', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"x"}' });
const id = ((await res.json()) as { id: string }).id;
for (const [name, url, h] of [['health', '/health', {}], ['404 authed', '/v1/zzz', headers], ['byid', `/v1/projects/${id}`, headers], ['list', '/v1/projects?limit=20', headers]] as const) {
  const m = await measure(name, `http://127.0.0.1:3931${url}`, { headers: h, pid: app.pid!, seconds: 4 });
  console.log(name.padEnd(12), m.cpuMicrosPerRequest.toFixed(0), 'µs/req', m.requestsPerSecond.toFixed(0), 'req/s');
}
app.kill();
