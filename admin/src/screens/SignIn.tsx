import { useEffect, useState, type FormEvent } from 'react';
import { api, errorWords } from '../api';
import { useAuth } from '../auth';
import { currentPath } from '../router';
import { Button, Field } from '../ui/kit';

interface Provider {
  id: string;
  name: string;
}

/** Providers the identity module enables; none shown when it cannot tell us. */
function useProviders() {
  const [providers, setProviders] = useState<Provider[]>([]);
  useEffect(() => {
    api
      .get<{ providers: Provider[] }>('/admin/bootstrap.json')
      .then((body) => setProviders(body.providers ?? []))
      .catch(() => setProviders([]));
  }, []);
  return providers;
}

const HINTS = {
  password: 'Use your e-mail address and password.',
  key: 'Paste an API key; it is kept in this tab only.',
  forgot: 'We will e-mail you a link to choose a new password.',
};

export function SignInScreen() {
  const { signIn, signInWithKey } = useAuth();
  const providers = useProviders();
  const [mode, setMode] = useState<'password' | 'key' | 'forgot'>('password');
  const [notice, setNotice] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const back = currentPath() === '/' || currentPath() === '/signin' ? '/admin/projects' : `/admin${currentPath()}`;

  const switchTo = (next: typeof mode) => {
    setMode(next);
    setError('');
    setNotice('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      if (mode === 'password') await signIn(email, password);
      else if (mode === 'key') await signInWithKey(key);
      else {
        await api.post('/api/auth/reset-password', { email });
        setNotice('If an account uses this address, a link to choose a new password is on its way.');
      }
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth-screen">
      <form className="auth-card" onSubmit={submit} aria-labelledby="signin-title">
        <div className="brand brand-lg"><span className="brand-mark" aria-hidden="true">▲</span> Quarry</div>
        <h1 id="signin-title">{mode === 'forgot' ? 'Reset your password' : 'Sign in'}</h1>
        <p className="muted">{HINTS[mode]}</p>
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        {notice && mode === 'forgot' && <div className="alert alert-success" role="status">{notice}</div>}
        {mode !== 'key' && <Field label="E-mail">{(id) => <input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>}
        {mode === 'password' && (
          <Field label="Password">{(id) => <input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
        )}
        {mode === 'key' && (
          <Field label="API key" hint="Keys start with qk_">{(id, hint) => <input id={id} aria-describedby={hint} autoComplete="off" required value={key} onChange={(e) => setKey(e.target.value)} />}</Field>
        )}
        <Button type="submit" variant="primary" busy={busy} className="btn-block">{mode === 'forgot' ? 'Send reset link' : 'Sign in'}</Button>
        {providers.length > 0 && mode === 'password' && (
          <div className="oauth">
            <div className="divider"><span>or</span></div>
            {providers.map((p) => (
              <a key={p.id} className="btn btn-secondary btn-block" href={`/api/auth/${encodeURIComponent(p.id)}?redirect=${encodeURIComponent(back)}`}>
                Continue with {p.name}
              </a>
            ))}
          </div>
        )}
        <div className="auth-links">
          {mode !== 'password' && <button type="button" className="link-btn" onClick={() => switchTo('password')}>Sign in with e-mail and password</button>}
          {mode === 'password' && <button type="button" className="link-btn" onClick={() => switchTo('forgot')}>Forgot your password?</button>}
          {mode !== 'key' && <button type="button" className="link-btn" onClick={() => switchTo('key')}>Sign in with an API key instead</button>}
        </div>
      </form>
    </div>
  );
}
