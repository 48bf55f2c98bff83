import { useState, type FormEvent } from 'react';
import { api, errorWords } from '../api';
import { Button, Field } from '../ui/kit';
import { Modal, useOverlay } from '../ui/overlay';

export interface Source {
  id: string;
  projectId: string;
  type: string;
  name: string;
  config: Record<string, unknown>;
  status: string;
  lastRun: { runId: string; status: string; queuedAt: string; startedAt: string | null; finishedAt: string | null } | null;
  stats: { documents: number; chunks: number; pagesCrawled: number; pagesFailed: number; lastIngestedAt: string | null };
  createdAt: string;
  updatedAt: string;
}

/** Create or edit a web source: seed URLs, depth, and any further crawl rules as JSON. */
export function SourceForm({ projectId, source, onClose, onSaved }: { projectId: string; source?: Source; onClose: () => void; onSaved: (s: Source) => void }) {
  const { toast } = useOverlay();
  const { urls: initialUrls, crawlDepth: initialDepth, ...rest } = (source?.config ?? {}) as { urls?: string[]; crawlDepth?: number };
  const [name, setName] = useState(source?.name ?? '');
  const [urls, setUrls] = useState((initialUrls ?? []).join('\n'));
  const [depth, setDepth] = useState(String(initialDepth ?? 1));
  const [extra, setExtra] = useState(Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    let more: Record<string, unknown> = {};
    if (extra.trim()) {
      try {
        more = JSON.parse(extra) as Record<string, unknown>;
      } catch {
        return setError('More settings must be a JSON object, e.g. {"maxPages": 100}');
      }
    }
    const config = { ...more, urls: urls.split(/\s+/).filter(Boolean), crawlDepth: Number(depth) };
    setBusy(true);
    try {
      const saved = source
        ? await api.patch<Source>(`/v1/sources/${source.id}`, { ...(name ? { name } : {}), config })
        : await api.post<Source>('/v1/sources', { projectId, type: 'web', ...(name ? { name } : {}), config });
      toast(source ? 'Source saved' : 'Source created');
      onSaved(saved);
      onClose();
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={source ? 'Edit source' : 'Add a web source'} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Name" hint="Optional; defaults to the first URL's host">{(id, hint) => <input id={id} aria-describedby={hint} maxLength={200} value={name} onChange={(e) => setName(e.target.value)} data-autofocus />}</Field>
        <Field label="Start URLs" hint="One absolute http(s) URL per line, up to 100">{(id, hint) => <textarea id={id} aria-describedby={hint} rows={3} required value={urls} onChange={(e) => setUrls(e.target.value)} placeholder="https://docs.example.com/" />}</Field>
        <Field label="Crawl depth" hint="Link hops from the start URLs (0 = only those pages)">{(id, hint) => <input id={id} aria-describedby={hint} type="number" min={0} max={10} required value={depth} onChange={(e) => setDepth(e.target.value)} />}</Field>
        <Field label="More settings (JSON)" hint="Optional crawl rules, see the API reference">{(id, hint) => <textarea id={id} aria-describedby={hint} rows={3} className="mono" value={extra} onChange={(e) => setExtra(e.target.value)} placeholder='{"include": ["/docs/**"]}' />}</Field>
        <div className="row end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>{source ? 'Save' : 'Create source'}</Button>
        </div>
      </form>
    </Modal>
  );
}
