import { useState, type FormEvent } from 'react';
import { api, errorWords } from '../api';
import { Link, useLocation } from '../router';
import { Button, Field } from '../ui/kit';

export function ResetPasswordScreen() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== repeat) return setError('The two passwords differ');
    setBusy(true);
    setError('');
    try {
      await api.post('/api/auth/reset-password/confirm', { token, password });
      setDone(true);
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth-screen">
      <form className="auth-card" onSubmit={submit} aria-labelledby="reset-title">
        <div className="brand brand-lg"><span className="brand-mark" aria-hidden="true">▲</span> Quarry</div>
        <h1 id="reset-title">Choose a new password</h1>
        {!token && <div className="alert alert-error" role="alert">This link has no reset token; open the link from your e-mail again.</div>}
        {done ? (
          <div className="alert alert-success" role="status">Your password was changed. <Link to="/">Sign in</Link></div>
        ) : (
          <>
            {error && <div className="alert alert-error" role="alert">{error}</div>}
            <Field label="New password">{(id) => <input id={id} type="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
            <Field label="Repeat the password">{(id) => <input id={id} type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />}</Field>
            <Button type="submit" variant="primary" busy={busy} disabled={!token} className="btn-block">Set password</Button>
          </>
        )}
      </form>
    </div>
  );
}
