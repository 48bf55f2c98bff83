import { useState } from 'react';
import { api, ApiError, errorWords, qs, type Page } from '../api';
import { Link, navigate } from '../router';
import { Badge, Button, Card, Empty, ErrorNote, Loading, PageHeader, Pager, formatDate, formatNumber, useLoad } from '../ui/kit';
import { useOverlay } from '../ui/overlay';
import { Stat } from './Project';
import type { Run } from './Run';
import { SourceForm, type Source } from './SourceForm';

interface DocumentRow {
  id: string;
  url: string;
  title?: string | null;
  chunkCount?: number;
  chunks?: number;
  updatedAt?: string;
  fetchedAt?: string;
}

/** 404 from a list endpoint that has not shipped yet reads as "not available", not as a failure. */
const missing = (err: unknown) => err instanceof ApiError && err.code === 'route_not_found';

export function SourceScreen({ id }: { id: string }) {
  const { confirm, toast } = useOverlay();
  const source = useLoad(() => api.get<Source>(`/v1/sources/${id}`), [id]);
  const [runPage, setRunPage] = useState(1);
  const [docPage, setDocPage] = useState(1);
  const runs = useLoad(() => api.get<Page<Run>>(`/v1/sources/${id}/runs${qs({ page: runPage, limit: 10 })}`), [id, runPage]);
  const docs = useLoad(() => api.get<Page<DocumentRow>>(`/v1/sources/${id}/documents${qs({ page: docPage, limit: 10 })}`), [id, docPage]);
  const projectId = source.data?.projectId;
  const project = useLoad(() => (projectId ? api.get<{ name: string }>(`/v1/projects/${projectId}`) : Promise.resolve(null)), [projectId]);
  const [editing, setEditing] = useState(false);
  const [triggering, setTriggering] = useState(false);

  if (source.error) return <ErrorNote error={source.error} />;
  if (!source.data) return <Loading />;
  const s = source.data;
  const urls = (s.config.urls as string[] | undefined) ?? [];

  const trigger = async () => {
    setTriggering(true);
    try {
      const { runId } = await api.post<{ runId: string }>('/v1/trigger/ingestion', { sourceId: id });
      toast('Ingestion started');
      navigate(`/runs/${runId}`);
    } catch (err) {
      toast(errorWords(err), 'error');
    } finally {
      setTriggering(false);
    }
  };
  const remove = async () => {
    if (!(await confirm('Delete source?', <>“{s.name}” and the knowledge taken from it will be deleted. This cannot be undone.</>, 'Delete source'))) return;
    try {
      await api.del(`/v1/sources/${id}`);
      toast('Source deleted');
      navigate(`/projects/${s.projectId}`);
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };

  return (
    <>
      <PageHeader
        crumbs={<><Link to="/projects">Projects</Link> / <Link to={`/projects/${s.projectId}`}>{project.data?.name ?? 'Project'}</Link> /</>}
        title={<>{s.name} <Badge>{s.status}</Badge></>}
        subtitle={<>Web source · depth {String(s.config.crawlDepth ?? 1)} · {urls.length} start URL{urls.length === 1 ? '' : 's'}</>}
        actions={
          <>
            <Button variant="primary" busy={triggering} onClick={trigger}>Run now</Button>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button variant="danger" onClick={remove}>Delete</Button>
          </>
        }
      />
      <div className="stats">
        <Stat label="Documents" value={s.stats.documents} />
        <Stat label="Chunks" value={s.stats.chunks} />
        <Stat label="Pages crawled" value={s.stats.pagesCrawled} />
        <Stat label="Pages failed" value={s.stats.pagesFailed} />
      </div>
      <Card title="Start URLs">
        <ul className="plain-list">{urls.map((u) => <li key={u}><a href={u} target="_blank" rel="noreferrer">{u}</a></li>)}</ul>
      </Card>
      <Card title="Run history">
        {runs.error ? (missing(runs.error) ? <p className="muted">Run history is not available on this server yet.</p> : <ErrorNote error={runs.error} />) : null}
        {runs.data && runs.data.data.length === 0 && <Empty title="No runs yet">Press “Run now” to crawl the start URLs.</Empty>}
        {runs.data && runs.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Run</th><th>Status</th><th>Queued</th><th>Finished</th><th className="num">Pages</th><th className="num">Failed</th></tr></thead>
              <tbody>
                {runs.data.data.map((r) => (
                  <tr key={r.runId}>
                    <td><Link to={`/runs/${r.runId}`}><code>{r.runId.slice(-8)}</code></Link></td>
                    <td><Badge>{r.status}</Badge></td>
                    <td>{formatDate(r.queuedAt)}</td>
                    <td>{formatDate(r.finishedAt)}</td>
                    <td className="num">{formatNumber(r.stats?.pagesFetched ?? r.stats?.pagesCrawled)}</td>
                    <td className="num">{formatNumber(r.stats?.pagesFailed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {runs.data && <Pager page={runPage} hasMore={runs.data.pagination.hasMore} onPage={setRunPage} />}
      </Card>
      <Card title="Documents">
        {docs.error ? (missing(docs.error) ? <p className="muted">Document listing is not available on this server yet.</p> : <ErrorNote error={docs.error} />) : null}
        {docs.data && docs.data.data.length === 0 && <Empty title="No documents yet" />}
        {docs.data && docs.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Title</th><th>URL</th><th className="num">Chunks</th></tr></thead>
              <tbody>
                {docs.data.data.map((d) => (
                  <tr key={d.id}>
                    <td>{d.title || <span className="muted">Untitled</span>}</td>
                    <td className="truncate"><a href={d.url} target="_blank" rel="noreferrer">{d.url}</a></td>
                    <td className="num">{formatNumber(d.chunkCount ?? d.chunks)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {docs.data && <Pager page={docPage} hasMore={docs.data.pagination.hasMore} onPage={setDocPage} />}
      </Card>
      {editing && <SourceForm projectId={s.projectId} source={s} onClose={() => setEditing(false)} onSaved={() => void source.reload()} />}
    </>
  );
}
