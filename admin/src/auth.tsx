import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, ApiError, setBearer } from './api';

export interface User {
  id: string;
  email: string;
  name: string;
  role: string;
  permissions?: unknown;
}

/** Who is signed in: a user with a session cookie, or an API key held in memory only. */
export type Session = { kind: 'user'; user: User } | { kind: 'key' };

interface AuthValue {
  session: Session | null;
  checking: boolean;
  signIn(email: string, password: string): Promise<void>;
  signInWithKey(key: string): Promise<void>;
  signOut(): Promise<void>;
  isAdmin: boolean;
}

const AuthContext = createContext<AuthValue | null>(null);

const userOf = (body: unknown): User => ((body as { user?: User }).user ?? body) as User;

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(true);

  useEffect(() => {
    api
      .get<unknown>('/api/auth/me')
      .then((me) => setSession({ kind: 'user', user: userOf(me) }))
      .catch(() => setSession(null))
      .finally(() => setChecking(false));
    const onUnauthorized = () => {
      setBearer(null);
      setSession(null);
    };
    window.addEventListener('quarry:unauthorized', onUnauthorized);
    return () => window.removeEventListener('quarry:unauthorized', onUnauthorized);
  }, []);

  const signIn = useCallback(async (email: string, password: string) => {
    const { user, token } = await api.post<{ user: User; token: string }>('/api/auth/signin', { email, password });
    // Trade the token for the HttpOnly session cookie; the token is then forgotten.
    setBearer(token);
    try {
      await api.post('/api/auth/session');
      setBearer(null);
    } catch (err) {
      // Without the session endpoint the token stays in memory (lost on reload).
      if (!(err instanceof ApiError && err.status === 404)) {
        setBearer(null);
        throw err;
      }
    }
    setSession({ kind: 'user', user });
  }, []);

  const signInWithKey = useCallback(async (key: string) => {
    setBearer(key.trim());
    try {
      await api.get('/v1/projects?limit=1');
      setSession({ kind: 'key' });
    } catch (err) {
      setBearer(null);
      throw err;
    }
  }, []);

  const signOut = useCallback(async () => {
    if (session?.kind === 'user') await api.del('/api/auth/session').catch(() => undefined);
    setBearer(null);
    setSession(null);
  }, [session]);

  const isAdmin = session?.kind === 'key' || (session?.kind === 'user' && ['admin', 'super_admin'].includes(session.user.role));
  return <AuthContext.Provider value={{ session, checking, signIn, signInWithKey, signOut, isAdmin }}>{children}</AuthContext.Provider>;
}

export function useAuth() {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
