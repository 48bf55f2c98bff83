import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { Button, Card, Empty, ErrorNote } from '../ui/kit';

/** Passages are stored as markdown; the result list shows them as plain text. */
const plain = (md: string) =>
  md
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

interface Hit {
  url: string;
  title: string;
  headingPath: string[];
  text: string;
  score: number;
}

const excerpt = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

export function SearchPanel({ projectId }: { projectId: string }) {
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState('hybrid');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await api.post<{ data: Hit[] }>(`/v1/projects/${projectId}/search`, { query, limit: 10, mode });
      setHits(res.data);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Search this project">
      <form className="search-form" onSubmit={submit} role="search">
        <label className="sr-only" htmlFor="search-query">Search query</label>
        <input id="search-query" type="search" required placeholder="Ask something the pages answer…" value={query} onChange={(e) => setQuery(e.target.value)} />
        <label className="sr-only" htmlFor="search-mode">Mode</label>
        <select id="search-mode" value={mode} onChange={(e) => setMode(e.target.value)}>
          <option value="hybrid">Hybrid</option>
          <option value="keyword">Keyword</option>
          <option value="semantic">Semantic</option>
        </select>
        <Button type="submit" variant="primary" busy={busy}>Search</Button>
      </form>
      <ErrorNote error={error} />
      {hits && hits.length === 0 && <Empty title="No matching passages">Try other words, or run the sources first.</Empty>}
      {hits && hits.length > 0 && (
        <ol className="hits" aria-label="Search results">
          {hits.map((h, i) => (
            <li key={`${h.url}-${i}`} className="hit">
              <div className="row between">
                <a href={h.url} target="_blank" rel="noreferrer" className="hit-title">{h.title || h.url}</a>
                <span className="muted small">score {h.score.toFixed(3)}</span>
              </div>
              {h.headingPath.length > 0 && <div className="muted small">{h.headingPath.join(' › ')}</div>}
              <p className="hit-text">{excerpt(plain(h.text))}</p>
              <div className="muted small truncate">{h.url}</div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
