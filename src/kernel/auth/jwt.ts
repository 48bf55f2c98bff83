import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../config/load.js';
import { ConfigError } from '../config/load.js';

const MIN_SECRET_BYTES = 32;

/** Production demands a real secret; development keeps a generated one in the data directory. */
export function resolveJwtSecret(config: Config): Uint8Array {
  const configured = config.auth.jwt.secret;
  if (configured) {
    if (config.env === 'production' && Buffer.byteLength(configured) < MIN_SECRET_BYTES)
      throw new ConfigError(`QUARRY_JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes in production`);
    return new TextEncoder().encode(configured);
  }
  if (config.env === 'production')
    throw new ConfigError('QUARRY_JWT_SECRET (or auth.jwt.secret) is required in production (at least 32 bytes)');
  const dir = resolve(config.dataDir);
  const file = join(dir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export interface TokenClaims extends JWTPayload {
  sub: string;
  role?: string;
  /** Token type, so a session token is never accepted as a bearer token or the reverse. */
  typ?: string;
  sid?: string;
}

export class JwtService {
  constructor(
    private readonly secret: Uint8Array,
    readonly algorithm: 'HS256' | 'HS384' | 'HS512',
    readonly expiresIn: string,
  ) {}

  async sign(claims: TokenClaims, expiresIn = this.expiresIn): Promise<{ token: string; expiresAt: string }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + parseDuration(expiresIn);
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: this.algorithm, typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.secret);
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** Returns the claims, or null for any bad token (expired, tampered, wrong algorithm, `alg: none`). */
  async verify(token: string, expectedType?: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: [this.algorithm] });
      if (typeof payload.sub !== 'string') return null;
      if ((payload.typ ?? 'access') !== (expectedType ?? 'access')) return null;
      return payload as TokenClaims;
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}

/** `7d`, `12h`, `30m`, `45s`, or plain seconds. */
export function parseDuration(value: string): number {
  const match = /^(\d+)\s*(s|m|h|d|w)?$/.exec(value.trim());
  if (!match) throw new ConfigError(`"${value}" is not a duration (e.g. 7d, 12h, 3600)`);
  const unit = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[match[2] as 's' | 'm' | 'h' | 'd' | 'w' | undefined ?? 's'];
  return Number(match[1]) * unit;
}
