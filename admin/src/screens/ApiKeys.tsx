import { useState, type FormEvent } from 'react';
import { api, errorWords, qs, type Page } from '../api';
import { loadModels, OTHER_RESOURCES } from '../models';
import { Badge, Button, Card, Empty, ErrorNote, Field, Loading, PageHeader, Pager, formatDate, useLoad } from '../ui/kit';
import { Modal, useOverlay } from '../ui/overlay';

type Action = 'read' | 'create' | 'update' | 'delete';
const ACTIONS: Action[] = ['read', 'create', 'update', 'delete'];

interface Permissions {
  models: Record<string, Action[]>;
  admin: boolean;
  rateLimit?: { requests: number; windowMs: number };
}
interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  permissions: Permissions;
  createdAt: string;
  lastUsedAt: string | null;
}

export function summarize(p: Permissions) {
  if (p.admin) return <Badge tone="violet">admin</Badge>;
  const entries = Object.entries(p.models).filter(([, a]) => a.length);
  if (!entries.length) return <span className="muted">No access</span>;
  return (
    <span className="perm-list">
      {entries.map(([m, a]) => (
        <span key={m} className="perm"><strong>{m}</strong> {a.length === 4 ? 'all' : a.join(', ')}</span>
      ))}
    </span>
  );
}

export function ApiKeysScreen() {
  const { confirm, toast } = useOverlay();
  const [page, setPage] = useState(1);
  const keys = useLoad(() => api.get<Page<ApiKey>>(`/api/admin/api-keys${qs({ page, limit: 20 })}`), [page]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<(ApiKey & { key: string }) | null>(null);

  const revoke = async (k: ApiKey) => {
    if (!(await confirm('Revoke API key?', <>Anything using “{k.name}” (<code>{k.prefix}…</code>) stops working at once. This cannot be undone.</>, 'Revoke key'))) return;
    try {
      await api.del(`/api/admin/api-keys/${k.id}`);
      toast(`Key “${k.name}” revoked`);
      void keys.reload();
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };

  return (
    <>
      <PageHeader title="API keys" subtitle="Keys let programs use the API with exactly the permissions you grant." actions={<Button variant="primary" onClick={() => setCreating(true)}>Generate key</Button>} />
      {created && (
        <div className="alert alert-warning key-reveal" role="alert">
          <div>
            <strong>Copy the key for “{created.name}” now — it will not be shown again.</strong>
            <p className="small">Quarry only keeps a hash of it. If you lose it, revoke it and generate a new one.</p>
          </div>
          <div className="row wrap">
            <code className="key-value" data-testid="new-key">{created.key}</code>
            <Button onClick={() => void navigator.clipboard?.writeText(created.key).then(() => toast('Key copied'), () => toast('Copy failed; select the key and copy it', 'error'))}>Copy</Button>
            <Button variant="ghost" onClick={() => setCreated(null)}>I have stored it</Button>
          </div>
        </div>
      )}
      <Card>
        <ErrorNote error={keys.error} />
        {keys.loading && !keys.data && <Loading />}
        {keys.data && keys.data.data.length === 0 && <Empty title="No API keys">Generate one for each program that needs access.</Empty>}
        {keys.data && keys.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Name</th><th>Prefix</th><th>Permissions</th><th>Last used</th><th>Created</th><th><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {keys.data.data.map((k) => (
                  <tr key={k.id}>
                    <td><strong>{k.name}</strong></td>
                    <td><code>{k.prefix}…</code></td>
                    <td>{summarize(k.permissions)}{k.permissions.rateLimit && <div className="muted small">{k.permissions.rateLimit.requests} req / {Math.round(k.permissions.rateLimit.windowMs / 1000)} s</div>}</td>
                    <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : <span className="muted">Never</span>}</td>
                    <td>{formatDate(k.createdAt)}</td>
                    <td className="actions"><Button variant="danger" onClick={() => revoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</Button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {keys.data && <Pager page={page} hasMore={keys.data.pagination.hasMore} onPage={setPage} />}
      </Card>
      {creating && (
        <KeyForm
          onClose={() => setCreating(false)}
          onCreated={(k) => {
            setCreated(k);
            void keys.reload();
          }}
        />
      )}
    </>
  );
}

/** The permission document built with controls: per-resource action boxes, admin switch, rate limit. */
export function PermissionEditor({ value, onChange }: { value: Permissions; onChange: (p: Permissions) => void }) {
  const models = useLoad(() => loadModels(), []);
  const resources = [...(models.data?.map((m) => m.name) ?? []), ...OTHER_RESOURCES];
  const toggle = (resource: string, action: Action, on: boolean) => {
    const current = new Set(value.models[resource] ?? []);
    if (on) current.add(action);
    else current.delete(action);
    const next = { ...value.models, [resource]: ACTIONS.filter((a) => current.has(a)) };
    if (!next[resource]!.length) delete next[resource];
    onChange({ ...value, models: next });
  };
  return (
    <div className="stack">
      <label className="switch">
        <input type="checkbox" role="switch" checked={value.admin} onChange={(e) => onChange({ ...value, admin: e.target.checked })} />
        <span className="switch-track" aria-hidden="true" />
        <span><strong>Administrator</strong> <span className="muted small">— every resource and the admin API</span></span>
      </label>
      <fieldset className="perm-grid" disabled={value.admin}>
        <legend>Access per resource</legend>
        <table>
          <thead><tr><th scope="col">Resource</th>{ACTIONS.map((a) => <th key={a} scope="col" className="center">{a}</th>)}</tr></thead>
          <tbody>
            {resources.map((r) => (
              <tr key={r}>
                <th scope="row"><code>{r}</code></th>
                {ACTIONS.map((a) => (
                  <td key={a} className="center">
                    <input type="checkbox" aria-label={`${a} ${r}`} checked={value.admin || (value.models[r]?.includes(a) ?? false)} onChange={(e) => toggle(r, a, e.target.checked)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </fieldset>
    </div>
  );
}

function KeyForm({ onClose, onCreated }: { onClose: () => void; onCreated: (k: ApiKey & { key: string }) => void }) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permissions>({ models: {}, admin: false });
  const [limitOn, setLimitOn] = useState(false);
  const [requests, setRequests] = useState('600');
  const [windowSeconds, setWindowSeconds] = useState('60');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const doc: Permissions = { models: permissions.admin ? {} : permissions.models, admin: permissions.admin };
      if (limitOn) doc.rateLimit = { requests: Number(requests), windowMs: Number(windowSeconds) * 1000 };
      const res = await api.post<{ data: ApiKey & { key: string } }>('/api/admin/api-keys', { name, permissions: doc });
      onCreated(res.data);
      onClose();
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="Generate an API key" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Name" hint="Who or what uses it, e.g. “website build”">{(id, hint) => <input id={id} aria-describedby={hint} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} data-autofocus />}</Field>
        <PermissionEditor value={permissions} onChange={setPermissions} />
        <label className="check"><input type="checkbox" checked={limitOn} onChange={(e) => setLimitOn(e.target.checked)} /> Own rate limit</label>
        {limitOn && (
          <div className="row wrap">
            <Field label="Requests">{(id) => <input id={id} type="number" min={1} required value={requests} onChange={(e) => setRequests(e.target.value)} />}</Field>
            <Field label="Per seconds">{(id) => <input id={id} type="number" min={1} required value={windowSeconds} onChange={(e) => setWindowSeconds(e.target.value)} />}</Field>
          </div>
        )}
        <div className="row end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>Generate key</Button>
        </div>
      </form>
    </Modal>
  );
}
