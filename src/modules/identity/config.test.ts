import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configSections } from '../../app.js';
import { ConfigError, loadConfig, secretEnvNames } from '../../kernel/config/load.js';
import { authSettings } from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-identity-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (env: Record<string, string>, overrides: Record<string, unknown> = {}) => loadConfig(configSections, { env, file: false, overrides });

describe('auth and cors settings', () => {
  it('has defaults', () => {
    const config = load({});
    const auth = authSettings(config);
    expect(auth.session).toMatchObject({ strategy: 'database', maxAge: 604800, updateAge: 86400, cookie: { httpOnly: true, sameSite: 'lax', path: '/' } });
    expect(auth.bruteForce).toEqual({ freeRetries: 5, minWait: 300000, maxWait: 900000, failuresBeforeBrute: 5 });
    expect(auth.providers.email.enabled).toBe(false);
    expect(config.cors).toMatchObject({ origin: [], credentials: true });
    expect(config.auth.jwt.algorithm).toBe('HS256');
  });

  it('reads environment variables, secrets from *_FILE too', () => {
    const secretFile = join(dir, 'client-secret');
    writeFileSync(secretFile, 'from-a-file\n');
    const config = load({
      QUARRY_CODEHOST_ENABLED: 'true',
      QUARRY_CODEHOST_CLIENT_ID: 'id',
      QUARRY_CODEHOST_CLIENT_SECRET_FILE: secretFile,
      QUARRY_SMTP_PASS_FILE: secretFile,
      QUARRY_SESSION_STRATEGY: 'jwt',
      QUARRY_BRUTE_FORCE_MIN_WAIT: '1000',
      QUARRY_CORS_ORIGIN: 'https://a.example, https://b.example',
    });
    const auth = authSettings(config);
    expect(auth.providers.codehost).toMatchObject({ enabled: true, clientId: 'id', clientSecret: 'from-a-file', allowSignup: false });
    expect(auth.providers.email.pass).toBe('from-a-file');
    expect(auth.session.strategy).toBe('jwt');
    expect(auth.bruteForce.minWait).toBe(1000);
    expect(config.cors).toMatchObject({ origin: ['https://a.example', 'https://b.example'] });
    expect(secretEnvNames(configSections)).toEqual(expect.arrayContaining(['QUARRY_SMTP_PASS', 'QUARRY_CODEHOST_CLIENT_SECRET', 'QUARRY_OIDC_CLIENT_SECRET', 'QUARRY_JWT_SECRET']));
  });

  it.each([
    [{ QUARRY_SESSION_STRATEGY: 'cookie' }, /auth\.session\.strategy.*QUARRY_SESSION_STRATEGY/],
    [{ QUARRY_BRUTE_FORCE_MIN_WAIT: '5' }, /auth\.bruteForce\.minWait/],
    [{ QUARRY_CORS_ORIGIN: 'https://a.example/path' }, /cors\.origin/],
    [{ QUARRY_OIDC_ISSUER: 'ftp://issuer' }, /auth\.providers\.oidc\.issuer/],
  ])('refuses bad values: %j', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it('refuses unknown auth settings but keeps auth.jwt for the core', () => {
    expect(() => load({}, { auth: { sessions: {} } })).toThrow(/auth\.sessions.*unknown/);
    expect(load({}, { auth: { jwt: { expiresIn: '1h' } } }).auth.jwt.expiresIn).toBe('1h');
  });
});
