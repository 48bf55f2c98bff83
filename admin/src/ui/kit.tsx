import { useCallback, useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { errorWords } from '../api';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function Button({ variant = 'secondary', busy, children, className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type="button" className={`btn btn-${variant} ${className ?? ''}`} disabled={busy || rest.disabled} aria-busy={busy || undefined} {...rest}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

const TONES: Record<string, string> = {
  succeeded: 'green', active: 'green', delivered: 'green', success: 'green', ok: 'green',
  running: 'blue', queued: 'amber', pending: 'amber', retrying: 'amber', idle: 'gray', archived: 'gray',
  failed: 'red', cancelled: 'gray', revoked: 'red', error: 'red', admin: 'violet', super_admin: 'violet',
};

export function Badge({ children, tone }: { children: ReactNode; tone?: string }) {
  const t = tone ?? TONES[String(children)] ?? 'gray';
  return <span className={`badge badge-${t}`}>{children}</span>;
}

export function Card({ title, actions, children, className }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`card ${className ?? ''}`}>
      {(title || actions) && (
        <header className="card-head">
          {title && <h2>{title}</h2>}
          {actions && <div className="row">{actions}</div>}
        </header>
      )}
      <div className="card-body">{children}</div>
    </section>
  );
}

export function PageHeader({ title, subtitle, actions, crumbs }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; crumbs?: ReactNode }) {
  return (
    <div className="page-head">
      <div>
        {crumbs && <nav className="crumbs" aria-label="Breadcrumb">{crumbs}</nav>}
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
      </div>
      {actions && <div className="row wrap">{actions}</div>}
    </div>
  );
}

/** A labelled control; `children` receives the id to put on the input. */
export function Field({ label, hint, error, children }: { label: string; hint?: ReactNode; error?: string; children: (id: string, describedBy?: string) => ReactNode }) {
  const id = useId();
  const hintId = hint || error ? `${id}-hint` : undefined;
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {(error || hint) && <div id={hintId} className={error ? 'field-error' : 'hint'}>{error ?? hint}</div>}
    </div>
  );
}

export function Progress({ value, label }: { value: number | null; label: string }) {
  const pct = value === null ? null : Math.max(0, Math.min(100, Math.round(value * 100)));
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct ?? undefined}>
      <div className={`progress-bar ${pct === null ? 'indeterminate' : ''}`} style={pct === null ? undefined : { width: `${pct}%` }} />
    </div>
  );
}

export function Pager({ page, hasMore, onPage }: { page: number; hasMore: boolean; onPage: (page: number) => void }) {
  if (page === 1 && !hasMore) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <Button variant="ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>← Previous</Button>
      <span className="muted">Page {page}</span>
      <Button variant="ghost" disabled={!hasMore} onClick={() => onPage(page + 1)}>Next →</Button>
    </nav>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">◇</div>
      <strong>{title}</strong>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return <div className="alert alert-error" role="alert">{errorWords(error)}</div>;
}

export function Loading() {
  return <div className="loading" role="status"><span className="spinner" aria-hidden="true" /> Loading…</div>;
}

/** Loads data on mount and when deps change; `reload` refetches. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await run();
      if (mine === seq.current) setState({ data, loading: false });
    } catch (error) {
      if (mine === seq.current) setState({ error, loading: false });
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}

export const formatDate = (value: string | null | undefined) => (value ? new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
export const formatNumber = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString());
