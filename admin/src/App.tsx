import { useEffect, useState, type ReactNode } from 'react';
import { useAuth } from './auth';
import { Link, match, navigate, useLocation } from './router';
import { ApiKeysScreen } from './screens/ApiKeys';
import { ContentListScreen, ContentModelsScreen } from './screens/Content';
import { ContentEditScreen } from './screens/ContentEdit';
import { ProjectScreen } from './screens/Project';
import { ProjectsScreen } from './screens/Projects';
import { ResetPasswordScreen } from './screens/ResetPassword';
import { RunScreen } from './screens/Run';
import { SignInScreen } from './screens/SignIn';
import { SourceScreen } from './screens/Source';
import { UsersScreen } from './screens/Users';
import { WebhooksScreen } from './screens/Webhooks';
import { Icon } from './ui/icons';
import { Button, Loading } from './ui/kit';

type Screen = (params: Record<string, string>) => ReactNode;

const ROUTES: [string, Screen][] = [
  ['/projects', () => <ProjectsScreen />],
  ['/projects/:id', (p) => <ProjectScreen id={p.id!} />],
  ['/sources/:id', (p) => <SourceScreen id={p.id!} />],
  ['/runs/:id', (p) => <RunScreen id={p.id!} />],
  ['/content', () => <ContentModelsScreen />],
  ['/content/:model', (p) => <ContentListScreen model={p.model!} />],
  ['/content/:model/new', (p) => <ContentEditScreen model={p.model!} />],
  ['/content/:model/:id', (p) => <ContentEditScreen model={p.model!} id={p.id!} />],
  ['/users', () => <UsersScreen />],
  ['/settings/api-keys', () => <ApiKeysScreen />],
  ['/webhooks', () => <WebhooksScreen />],
];

const NAV = [
  { to: '/projects', label: 'Knowledge', icon: 'knowledge', prefixes: ['/projects', '/sources', '/runs'] },
  { to: '/content', label: 'Content', icon: 'content', prefixes: ['/content'] },
  { to: '/webhooks', label: 'Webhooks', icon: 'webhooks', prefixes: ['/webhooks'], admin: true },
  { to: '/users', label: 'Users', icon: 'users', prefixes: ['/users'], admin: true },
  { to: '/settings/api-keys', label: 'API keys', icon: 'keys', prefixes: ['/settings'], admin: true },
];

export function App() {
  const { session, checking } = useAuth();
  const { path } = useLocation();

  if (path === '/reset-password') return <ResetPasswordScreen />;
  if (checking) return <div className="center-screen"><Loading /></div>;
  if (!session) return <SignInScreen />;
  if (path === '/' || path === '/signin') return <Redirect to="/projects" />;
  let content: ReactNode = <NotFound />;
  for (const [pattern, screen] of ROUTES) {
    const params = match(pattern, path);
    if (params) {
      content = screen(params);
      break;
    }
  }
  return <Shell path={path}>{content}</Shell>;
}

function Shell({ path, children }: { path: string; children: ReactNode }) {
  const { session, signOut, isAdmin } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const who = session?.kind === 'user' ? session.user.name || session.user.email : 'Signed in with an API key';
  const role = session?.kind === 'user' ? session.user.role : '';
  return (
    <div className={`shell ${menuOpen ? 'menu-open' : ''}`}>
      <a className="skip-link" href="#main">Skip to content</a>
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">▲</span> Quarry
        </div>
        <nav aria-label="Main navigation">
          {NAV.filter((n) => !n.admin || isAdmin).map((n) => {
            const active = n.prefixes.some((p) => path === p || path.startsWith(`${p}/`));
            return (
              <Link key={n.to} to={n.to} className={`nav-item ${active ? 'active' : ''}`} aria-current={active ? 'page' : undefined}>
                <span className="nav-icon"><Icon name={n.icon} /></span>
                {n.label}
              </Link>
            );
          })}
        </nav>
        <div className="sidebar-foot muted">
          <a href="/docs" target="_blank" rel="noreferrer">API reference ↗</a>
        </div>
      </aside>
      <div className="main-col">
        <header className="topbar">
          <button type="button" className="icon-btn menu-btn" aria-label="Open navigation" aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)}>☰</button>
          <span className="topbar-title">Administration</span>
          <div className="row">
            <span className="who">
              <span className="avatar" aria-hidden="true">{who.slice(0, 1).toUpperCase()}</span>
              <span className="who-text">{who} <small className="muted">{role}</small></span>
            </span>
            <Button variant="ghost" onClick={() => void signOut()}>Sign out</Button>
          </div>
        </header>
        <main id="main" className="content" tabIndex={-1}>{children}</main>
      </div>
      {menuOpen && <div className="scrim" onClick={() => setMenuOpen(false)} aria-hidden="true" />}
    </div>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function NotFound() {
  return (
    <div className="empty">
      <strong>Nothing here</strong>
      <Link to="/projects">Go to projects</Link>
    </div>
  );
}
