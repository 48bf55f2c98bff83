import type { Action, Principal } from '../auth/principal.js';

/**
 * Per-route access, set in the route's `config.access`:
 * - `public`: anyone (a credential, if sent, is still checked and attached);
 * - `authenticated`: any valid credential; the service decides the rest;
 * - `{ model, action }`: the default policy (`can`) must allow it.
 */
export type RouteAccess = 'public' | 'authenticated' | { model: string; action: Action };

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Skip rate limiting and credential checks entirely (health probes, static assets). */
    bare?: boolean;
  }
}
