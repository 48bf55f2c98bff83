import { existsSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../kernel/http/server.js';

/** The built admin app; the same relative hop works from src/ (tsx) and dist/ (compiled). */
export const ADMIN_DIST = fileURLToPath(new URL('../../../admin/dist', import.meta.url));

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Quarry admin</title>
<p style="font:16px system-ui;margin:3rem">The admin app has not been built. Run <code>npm run build</code> and restart.</p>`;

/**
 * Serves the admin single-page app at /admin. Hashed assets are cached for good; every other path
 * under /admin gets index.html so deep links (e.g. /admin/projects/prj_1) load the app, which
 * then routes on the client. The routes are `bare`: static files need no credential and must not
 * count against anyone's rate limit.
 */
export function adminUiRoutes(config: { auth?: unknown } = {}, distDir: string = ADMIN_DIST) {
  const providers = enabledProviders(config.auth);
  return async (app: App) => {
    const built = existsSync(join(distDir, 'index.html'));
    if (built) await app.register(fastifyStatic, { root: distDir, serve: false });
    const route = { config: { bare: true }, schema: { hide: true } } as const;

    const serve = (request: FastifyRequest, reply: FastifyReply) => {
      if (!built) return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT);
      const rest = (request.params as { '*'?: string })['*'] ?? '';
      const file = assetPath(distDir, rest);
      if (file) {
        const immutable = rest.startsWith('assets/');
        return reply
          .header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
          .sendFile(file, { cacheControl: false });
      }
      // Unknown asset files are a plain 404; anything else is a client-side route.
      if (rest.startsWith('assets/')) return reply.code(404).send({ error: { code: 'not_found', message: `No admin asset ${rest}` } });
      return reply
        .header('Cache-Control', 'no-cache')
        .header('X-Frame-Options', 'DENY')
        .header('Referrer-Policy', 'same-origin')
        .sendFile('index.html', { cacheControl: false });
    };

    // What the sign-in screen needs before anyone is signed in: provider ids and labels, nothing secret.
    app.get('/admin/bootstrap.json', route, async (_req, reply) => reply.header('Cache-Control', 'no-cache').send({ providers }));
    app.get('/admin', route, (_req, reply) => reply.redirect('/admin/'));
    app.get('/admin/*', route, serve);
  };
}

const LABELS: Record<string, string> = { codehost: 'GitHub', github: 'GitHub', google: 'Google', oidc: 'Single sign-on' };

/** OAuth providers that are enabled and configured (`auth.providers.<id>` with a client id). */
export function enabledProviders(auth: unknown): { id: string; name: string }[] {
  const providers = ((auth as { providers?: Record<string, { enabled?: boolean; clientId?: string }> } | undefined)?.providers ?? {});
  return Object.entries(providers)
    .filter(([id, p]) => id !== 'email' && p?.enabled && p.clientId)
    .map(([id]) => ({ id, name: LABELS[id] ?? id.charAt(0).toUpperCase() + id.slice(1) }));
}

/** A real file inside the dist folder (never outside it), relative to it; else undefined. */
function assetPath(distDir: string, rest: string): string | undefined {
  if (!rest || rest.endsWith('/') || rest === 'index.html') return undefined;
  const relative = normalize(rest).replace(/^([/\\])+/, '');
  if (relative.startsWith('..') || relative.includes(`${sep}..`)) return undefined;
  const full = join(distDir, relative);
  if (!full.startsWith(distDir + sep)) return undefined;
  try {
    return statSync(full).isFile() ? relative : undefined;
  } catch {
    return undefined;
  }
}
