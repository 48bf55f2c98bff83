import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configSections } from '../src/app.js';
import { resolveJwtSecret } from '../src/kernel/auth/jwt.js';
import { ConfigError, loadConfig } from '../src/kernel/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>, file: string | false = false) => loadConfig(configSections, { env, file });

describe('configuration', () => {
  it('has working defaults', () => {
    const config = load({});
    expect(config.server.port).toBe(3000);
    expect(config.dataDir).toBe('./data');
    expect(config.rateLimit).toMatchObject({ windowMs: 900_000, max: 100, maxAuthenticated: 1000, skipSuccessfulRequests: false, standardHeaders: false });
    expect(config.auth.jwt).toMatchObject({ algorithm: 'HS256', expiresIn: '7d' });
  });

  it('reads environment variables over the JSON file', () => {
    const file = join(dir, 'quarry.config.json');
    writeFileSync(file, JSON.stringify({ server: { port: 4000, host: '127.0.0.1' }, rateLimit: { max: 5 } }));
    const config = load({ PORT: '5000', QUARRY_RATE_LIMIT_STANDARD_HEADERS: 'true' }, file);
    expect(config.server).toMatchObject({ port: 5000, host: '127.0.0.1' });
    expect(config.rateLimit).toMatchObject({ max: 5, standardHeaders: true });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /server\.port.*PORT/],
    [{ QUARRY_RATE_LIMIT_MAX: '0' }, /rateLimit\.max/],
    [{ QUARRY_JWT_ALGORITHM: 'RS256' }, /auth\.jwt\.algorithm/],
    [{ QUARRY_REQUIRE_HTTPS: 'maybe' }, /QUARRY_REQUIRE_HTTPS/],
    [{ REDIS_URL: 'http://nope' }, /redisUrl.*REDIS_URL/],
    [{ QUARRY_LOG_LEVEL: 'loud' }, /logLevel/],
  ])('names the bad setting: %o', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it('names unknown settings and broken files', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ rateLimit: { maxx: 1 } }));
    expect(() => load({}, file)).toThrow(/rateLimit\.maxx" is unknown/);
    writeFileSync(file, '{ nope');
    expect(() => load({}, file)).toThrow(/not valid JSON/);
    expect(() => loadConfig(configSections, { env: { QUARRY_CONFIG: join(dir, 'missing.json') } })).toThrow(/does not exist/);
  });

  it('reads secrets from *_FILE variables', () => {
    const file = join(dir, 'jwt');
    writeFileSync(file, 'from-a-file-secret-from-a-file-secret-xx\n');
    expect(load({ QUARRY_JWT_SECRET_FILE: file }).auth.jwt.secret).toBe('from-a-file-secret-from-a-file-secret-xx');
    expect(() => load({ QUARRY_JWT_SECRET_FILE: join(dir, 'nope') })).toThrow(/QUARRY_JWT_SECRET_FILE/);
  });

  it('demands a strong JWT secret in production', () => {
    expect(() => resolveJwtSecret(load({ NODE_ENV: 'production', QUARRY_DATA_DIR: dir }))).toThrow(/QUARRY_JWT_SECRET.*required/);
    expect(() => resolveJwtSecret(load({ NODE_ENV: 'production', QUARRY_JWT_SECRET: 'short' }))).toThrow(/at least 32 bytes/);
    expect(resolveJwtSecret(load({ NODE_ENV: 'production', QUARRY_JWT_SECRET: 'x'.repeat(32) }))).toHaveLength(32);
  });

  it('generates a development secret once and keeps it in the data directory', () => {
    const dataDir = join(dir, 'data');
    const first = resolveJwtSecret(load({ QUARRY_DATA_DIR: dataDir }));
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(true);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveJwtSecret(load({ QUARRY_DATA_DIR: dataDir }))).toEqual(first);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
  });
});
