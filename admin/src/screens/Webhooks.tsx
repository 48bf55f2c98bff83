import { useState, type FormEvent } from 'react';
import { api, errorWords, qs, type Page } from '../api';
import { Badge, Button, Card, Empty, ErrorNote, Field, Loading, PageHeader, Pager, formatDate, useLoad } from '../ui/kit';
import { Modal, useOverlay } from '../ui/overlay';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  models: string[];
  enabled: boolean;
  /** `config` endpoints come from the configuration file and are read-only here. */
  source: 'config' | 'admin';
  secret: string;
  createdAt: string | null;
}
interface Delivery {
  id: string;
  endpointId: string;
  event: string;
  model: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseCode: number | null;
  error: string | null;
  durationMs: number | null;
  nextAttemptAt: string | null;
  redeliveryOf: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const EVENTS = ['*', 'content.*', 'content.created', 'content.updated', 'content.deleted', 'ingestion.*', 'ingestion.succeeded', 'ingestion.failed', 'ingestion.cancelled'];

/** 32 random bytes as hex: a signing secret the person can copy before saving. */
const newSecret = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');

export function WebhooksScreen() {
  const { confirm, toast } = useOverlay();
  const endpoints = useLoad(() => api.get<Page<Endpoint>>('/api/admin/webhooks?limit=100'), []);
  const [page, setPage] = useState(1);
  const deliveries = useLoad(() => api.get<Page<Delivery>>(`/api/admin/webhooks/deliveries${qs({ page, limit: 20 })}`), [page]);
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);

  const remove = async (e: Endpoint) => {
    if (!(await confirm('Delete endpoint?', <>Events will no longer be sent to <code>{e.url}</code>.</>, 'Delete endpoint'))) return;
    try {
      await api.del(`/api/admin/webhooks/${e.id}`);
      toast('Endpoint deleted');
      void endpoints.reload();
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };
  const redeliver = async (d: Delivery) => {
    try {
      await api.post(`/api/admin/webhooks/deliveries/${d.id}/redeliver`);
      toast('Redelivery queued');
      void deliveries.reload();
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };
  const urlOf = (id: string) => endpoints.data?.data.find((e) => e.id === id)?.url ?? id;

  return (
    <>
      <PageHeader title="Webhooks" subtitle="Quarry POSTs signed events to these URLs when content or knowledge changes." actions={<Button variant="primary" onClick={() => setEditing('new')}>Add endpoint</Button>} />
      <Card title="Endpoints">
        <ErrorNote error={endpoints.error} />
        {endpoints.loading && !endpoints.data && <Loading />}
        {endpoints.data && endpoints.data.data.length === 0 && <Empty title="No endpoints" />}
        {endpoints.data && endpoints.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>URL</th><th>Events</th><th>Models</th><th>State</th><th>Secret</th><th><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {endpoints.data.data.map((e) => (
                  <tr key={e.id}>
                    <td className="truncate"><code>{e.url}</code></td>
                    <td><span className="perm-list">{e.events.map((ev) => <code key={ev} className="perm">{ev}</code>)}</span></td>
                    <td>{e.models.length ? e.models.join(', ') : <span className="muted">all</span>}</td>
                    <td><Badge tone={e.enabled ? 'green' : 'gray'}>{e.enabled ? 'active' : 'paused'}</Badge></td>
                    <td><code>{e.secret}</code></td>
                    <td className="actions">
                      {e.source === 'config' ? (
                        <span className="muted small">from config file</span>
                      ) : (
                        <>
                          <Button onClick={() => setEditing(e)} aria-label={`Edit ${e.url}`}>Edit</Button>
                          <Button variant="danger" onClick={() => remove(e)} aria-label={`Delete ${e.url}`}>Delete</Button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card title="Delivery log" actions={<Button variant="ghost" onClick={() => { void endpoints.reload(); void deliveries.reload(); }}>Refresh</Button>}>
        <ErrorNote error={deliveries.error} />
        {deliveries.data && deliveries.data.data.length === 0 && <Empty title="No deliveries yet" />}
        {deliveries.data && deliveries.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Event</th><th>Endpoint</th><th>Status</th><th>Response</th><th className="num">Attempts</th><th>When</th><th><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {deliveries.data.data.map((d) => (
                  <tr key={d.id}>
                    <td><code>{d.event}</code><div className="muted small">{[d.model, d.redeliveryOf && 'redelivery'].filter(Boolean).join(' · ')}</div></td>
                    <td className="truncate">{urlOf(d.endpointId)}</td>
                    <td><Badge>{d.status}</Badge></td>
                    <td>
                      {d.responseCode ? <Badge tone={d.responseCode < 300 ? 'green' : 'red'}>{d.responseCode}</Badge> : '—'}
                      {d.error && <div className="muted small">{d.error}</div>}
                    </td>
                    <td className="num">{d.attempts}</td>
                    <td className="nowrap">{formatDate(d.deliveredAt ?? d.createdAt)}{d.status === 'pending' && d.nextAttemptAt && <div className="muted small">next {formatDate(d.nextAttemptAt)}</div>}</td>
                    <td className="actions"><Button onClick={() => redeliver(d)} aria-label={`Redeliver ${d.event} ${d.id}`}>Redeliver</Button></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {deliveries.data && <Pager page={page} hasMore={deliveries.data.pagination.hasMore} onPage={setPage} />}
      </Card>
      {editing && <EndpointForm endpoint={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} onDone={() => void endpoints.reload()} />}
    </>
  );
}

function EndpointForm({ endpoint, onClose, onDone }: { endpoint?: Endpoint; onClose: () => void; onDone: () => void }) {
  const { toast } = useOverlay();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? ['content.*']);
  const [models, setModels] = useState((endpoint?.models ?? []).join(', '));
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [secret, setSecret] = useState(endpoint ? '' : newSecret());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const toggle = (ev: string, on: boolean) => setEvents((all) => (on ? [...all, ev] : all.filter((x) => x !== ev)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const body = { url, events, models: models.split(/[\s,]+/).filter(Boolean), enabled, ...(secret ? { secret } : {}) };
    try {
      if (endpoint) await api.patch(`/api/admin/webhooks/${endpoint.id}`, body);
      else await api.post('/api/admin/webhooks', body);
      toast(endpoint ? 'Endpoint saved' : 'Endpoint added');
      onDone();
      onClose();
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={endpoint ? 'Edit endpoint' : 'Add an endpoint'} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="URL">{(id) => <input id={id} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/hooks/quarry" data-autofocus />}</Field>
        <fieldset>
          <legend>Events</legend>
          <div className="check-grid">
            {EVENTS.map((ev) => (
              <label key={ev} className="check"><input type="checkbox" checked={events.includes(ev)} onChange={(e) => toggle(ev, e.target.checked)} /> <code>{ev}</code></label>
            ))}
          </div>
        </fieldset>
        <Field label="Models" hint="Comma-separated content models; empty means all">{(id, hint) => <input id={id} aria-describedby={hint} value={models} onChange={(e) => setModels(e.target.value)} placeholder="posts, pages" />}</Field>
        <Field label="Signing secret" hint={endpoint ? 'Leave empty to keep the current secret' : 'Copy it now to verify signatures; only its last characters are shown later'}>
          {(id, hint) => (
            <div className="row">
              <input id={id} aria-describedby={hint} className="mono" minLength={16} required={!endpoint} value={secret} onChange={(e) => setSecret(e.target.value)} />
              <Button onClick={() => setSecret(newSecret())}>New</Button>
            </div>
          )}
        </Field>
        <label className="check"><input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Active</label>
        <div className="row end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>{endpoint ? 'Save' : 'Add endpoint'}</Button>
        </div>
      </form>
    </Modal>
  );
}
