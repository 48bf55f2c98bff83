import { useEffect, useState } from 'react';
import { api, ApiError, errorWords, type Page } from '../api';
import { Link } from '../router';
import { Badge, Button, Card, ErrorNote, Loading, PageHeader, Progress, formatDate, formatNumber, useLoad } from '../ui/kit';
import { useOverlay } from '../ui/overlay';

export interface Run {
  runId: string;
  sourceId: string;
  projectId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  attempts: number;
  stats: Record<string, number | null>;
}

interface RunError {
  url: string;
  status?: number | null;
  reason?: string;
  message?: string;
  error?: string;
}

const ACTIVE = ['queued', 'running'];
const LABELS: Record<string, string> = {
  pagesDiscovered: 'Discovered', pagesFetched: 'Fetched', pagesSkipped: 'Skipped', pagesFailed: 'Failed',
  documents: 'Documents', chunks: 'Chunks', bytes: 'Bytes', pagesCrawled: 'Crawled', pagesUnchanged: 'Unchanged',
};
const label = (key: string) => LABELS[key] ?? key.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());

/** Share of discovered pages already settled; null (indeterminate) until something is discovered. */
function progressOf(run: Run): number | null {
  if (!ACTIVE.includes(run.status)) return 1;
  const st = run.stats;
  const discovered = st.pagesDiscovered ?? 0;
  if (!discovered) return null;
  const settled = (st.pagesFetched ?? st.pagesCrawled ?? 0) + (st.pagesFailed ?? 0) + (st.pagesSkipped ?? 0);
  return Math.min(0.99, settled / discovered);
}

export function RunScreen({ id }: { id: string }) {
  const { confirm, toast } = useOverlay();
  const [run, setRun] = useState<Run | null>(null);
  const [error, setError] = useState<unknown>(null);
  const active = run ? ACTIVE.includes(run.status) : true;

  // Poll while the run is active; stop as soon as it settles.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const next = await api.get<Run>(`/v1/runs/${id}`);
        if (stopped) return;
        setRun(next);
        setError(null);
        if (ACTIVE.includes(next.status)) timer = setTimeout(tick, 800);
      } catch (err) {
        if (!stopped) setError(err);
        if (!stopped) timer = setTimeout(tick, 3000);
      }
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id]);

  const sourceId = run?.sourceId;
  const source = useLoad(() => (sourceId ? api.get<{ name: string }>(`/v1/sources/${sourceId}`) : Promise.resolve(null)), [sourceId]);
  const errors = useLoad(() => (active ? Promise.resolve(null) : api.get<Page<RunError>>(`/v1/runs/${id}/errors?limit=50`)), [id, active]);

  if (!run) return error ? <ErrorNote error={error} /> : <Loading />;

  const cancel = async () => {
    if (!(await confirm('Cancel this run?', 'Pages already stored stay; the rest of the crawl stops.', 'Cancel run'))) return;
    try {
      setRun(await api.post<Run>(`/v1/runs/${id}/cancel`));
      toast('Run cancelled');
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };
  const counters = Object.entries(run.stats).filter(([, v]) => typeof v === 'number');

  return (
    <>
      <PageHeader
        crumbs={<><Link to="/projects">Projects</Link> / <Link to={`/sources/${run.sourceId}`}>{source.data?.name ?? 'Source'}</Link> /</>}
        title={<>Run <code>{run.runId.slice(-8)}</code> <Badge>{run.status}</Badge></>}
        subtitle={<>Queued {formatDate(run.queuedAt)}{run.finishedAt ? ` · finished ${formatDate(run.finishedAt)}` : ''}</>}
        actions={active ? <Button variant="danger" onClick={cancel}>Cancel run</Button> : <Link className="btn btn-secondary" to={`/sources/${run.sourceId}`}>Back to source</Link>}
      />
      <Card>
        <div className="row between">
          <strong>{active ? (run.status === 'queued' ? 'Waiting for a worker…' : 'Crawling…') : run.status === 'succeeded' ? 'Finished' : run.status === 'failed' ? 'Failed' : 'Cancelled'}</strong>
          <span className="muted small" aria-live="polite">{active ? 'Updating live' : ''}</span>
        </div>
        <Progress value={progressOf(run)} label="Run progress" />
        {run.error && <div className="alert alert-error" role="alert">{run.error}</div>}
        <div className="stats stats-compact" data-testid="run-stats">
          {counters.length === 0 && <span className="muted">No counters yet.</span>}
          {counters.map(([k, v]) => (
            <div className="stat" key={k}>
              <div className="stat-value">{formatNumber(v)}</div>
              <div className="stat-label">{label(k)}</div>
            </div>
          ))}
        </div>
      </Card>
      {!active && (
        <Card title="Failed URLs">
          {errors.error instanceof ApiError && errors.error.code === 'route_not_found' ? (
            <p className="muted">The failure list is not available on this server yet.</p>
          ) : (
            <ErrorNote error={errors.error} />
          )}
          {errors.data && errors.data.data.length === 0 && <p className="muted">No page failed in this run.</p>}
          {errors.data && errors.data.data.length > 0 && (
            <div className="table-wrap">
              <table>
                <thead><tr><th>URL</th><th>Status</th><th>Reason</th></tr></thead>
                <tbody>
                  {errors.data.data.map((e, i) => (
                    <tr key={`${e.url}-${i}`}>
                      <td className="truncate"><a href={e.url} target="_blank" rel="noreferrer">{e.url}</a></td>
                      <td>{e.status ?? '—'}</td>
                      <td>{e.reason ?? e.message ?? e.error ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      )}
    </>
  );
}
