/** The one way the admin app talks to Quarry: same-origin fetch, the session cookie, API errors in words. */
export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
  ) {
    super(message);
  }
  /** The message plus each field problem, for a toast or a form banner. */
  get words(): string {
    if (!this.details.length) return this.message;
    const fields = this.details.map((d) => `${d.field} ${d.message}`).join('; ');
    return this.message.includes(fields) ? this.message : `${this.message} (${fields})`;
  }
}

export interface Page<T> {
  data: T[];
  pagination: { page: number; limit: number; hasMore: boolean };
}

// A bearer credential kept in memory only (API-key sign-in, or a token before the cookie exists).
let bearer: string | null = null;
export const setBearer = (token: string | null) => {
  bearer = token;
};
export const hasBearer = () => bearer !== null;

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network_error', 'Quarry could not be reached; check your connection and try again');
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const err = (parsed as { error?: { code?: string; message?: string; details?: FieldError[] } } | undefined)?.error;
    const error = new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `The server answered ${res.status} ${res.statusText}`, err?.details ?? []);
    if (res.status === 401 && !path.startsWith('/api/auth/')) window.dispatchEvent(new CustomEvent('quarry:unauthorized'));
    throw error;
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  del: <T = void>(path: string) => request<T>('DELETE', path),
};

/** `?a=1&b=2` from the defined entries only. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

export const errorWords = (err: unknown) => (err instanceof ApiError ? err.words : err instanceof Error ? err.message : String(err));
