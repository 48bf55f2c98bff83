import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A tiny history router: the app lives under /admin, paths inside it start with "/". */
export const BASE = '/admin';

export const currentPath = () => {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : window.location.pathname;
  return path || '/';
};

export function navigate(to: string, options: { replace?: boolean } = {}) {
  const url = BASE + to;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event('quarry:navigate'));
}

export function useLocation() {
  const [path, setPath] = useState(currentPath);
  const [search, setSearch] = useState(window.location.search);
  useEffect(() => {
    const update = () => {
      setPath(currentPath());
      setSearch(window.location.search);
    };
    window.addEventListener('popstate', update);
    window.addEventListener('quarry:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('quarry:navigate', update);
    };
  }, []);
  return { path, query: new URLSearchParams(search) };
}

/** Matches "/projects/:id" against a path; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(s[i]!);
    else if (part !== s[i]) return null;
  }
  return params;
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={BASE + to} onClick={handle} {...rest} />;
}
