import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal.js';

/**
 * The port modules fill in: each verifier looks at a request and either proves who it is, says the
 * credential it recognised is bad (`invalid`), or passes (`null`) so the next one can try.
 */
export type VerifyResult = { principal: Principal } | { invalid: string } | null;
export type CredentialVerifier = (request: FastifyRequest, bearer: string | undefined) => Promise<VerifyResult>;

export class CredentialRegistry {
  private readonly verifiers: CredentialVerifier[] = [];

  register(verifier: CredentialVerifier) {
    this.verifiers.push(verifier);
  }

  async verify(request: FastifyRequest): Promise<VerifyResult> {
    const header = request.headers.authorization;
    let bearer: string | undefined;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) return { invalid: 'The Authorization header must be "Bearer <API key or token>"' };
      bearer = match[1];
    }
    for (const verifier of this.verifiers) {
      const result = await verifier(request, bearer);
      if (result) return result;
    }
    return bearer ? { invalid: 'The credential is not recognised' } : null;
  }
}
