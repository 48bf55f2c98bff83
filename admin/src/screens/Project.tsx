import { useState } from 'react';
import { api, errorWords, qs, type Page } from '../api';
import { Link, navigate } from '../router';
import { Badge, Button, Card, Empty, ErrorNote, Loading, PageHeader, Pager, formatDate, formatNumber, useLoad } from '../ui/kit';
import { useOverlay } from '../ui/overlay';
import { ProjectForm, type Project } from './Projects';
import { SearchPanel } from './Search';
import { SourceForm, type Source } from './SourceForm';

export function ProjectScreen({ id }: { id: string }) {
  const { confirm, toast } = useOverlay();
  const project = useLoad(() => api.get<Project>(`/v1/projects/${id}`), [id]);
  const [page, setPage] = useState(1);
  const sources = useLoad(() => api.get<Page<Source>>(`/v1/sources${qs({ projectId: id, page, limit: 20 })}`), [id, page]);
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);

  if (project.error) return <ErrorNote error={project.error} />;
  if (!project.data) return <Loading />;
  const p = project.data;

  const toggleArchive = async () => {
    const status = p.status === 'archived' ? 'active' : 'archived';
    try {
      await api.patch(`/v1/projects/${id}`, { status });
      toast(status === 'archived' ? 'Project archived' : 'Project restored');
      void project.reload();
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };
  const remove = async () => {
    if (!(await confirm('Delete project?', <>“{p.name}” and all its sources, runs and knowledge will be deleted. This cannot be undone.</>, 'Delete project'))) return;
    try {
      await api.del(`/v1/projects/${id}`);
      toast('Project deleted');
      navigate('/projects');
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };

  return (
    <>
      <PageHeader
        crumbs={<><Link to="/projects">Projects</Link> <span aria-hidden="true">/</span></>}
        title={<>{p.name} <Badge>{p.status}</Badge></>}
        subtitle={p.description}
        actions={
          <>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button onClick={toggleArchive}>{p.status === 'archived' ? 'Restore' : 'Archive'}</Button>
            <Button variant="danger" onClick={remove}>Delete</Button>
          </>
        }
      />
      <div className="stats">
        <Stat label="Sources" value={p.counts?.sources} />
        <Stat label="Documents" value={p.counts?.documents} />
        <Stat label="Chunks" value={p.counts?.chunks} />
      </div>
      <Card title="Sources" actions={<Button variant="primary" onClick={() => setAdding(true)}>Add source</Button>}>
        <ErrorNote error={sources.error} />
        {sources.data && sources.data.data.length === 0 ? (
          <Empty title="No sources yet">Add a web source with the pages to crawl.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Name</th><th>Type</th><th>Status</th><th className="num">Documents</th><th>Last run</th></tr></thead>
              <tbody>
                {sources.data?.data.map((s) => (
                  <tr key={s.id}>
                    <td><Link to={`/sources/${s.id}`}>{s.name}</Link></td>
                    <td><code>{s.type}</code></td>
                    <td><Badge>{s.status}</Badge></td>
                    <td className="num">{formatNumber(s.stats?.documents)}</td>
                    <td>{s.lastRun ? <Link to={`/runs/${s.lastRun.runId}`}>{formatDate(s.lastRun.finishedAt ?? s.lastRun.queuedAt)}</Link> : <span className="muted">Never</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {sources.data && <Pager page={page} hasMore={sources.data.pagination.hasMore} onPage={setPage} />}
      </Card>
      <SearchPanel projectId={id} />
      {editing && <ProjectForm project={p} onClose={() => setEditing(false)} onSaved={() => void project.reload()} />}
      {adding && <SourceForm projectId={id} onClose={() => setAdding(false)} onSaved={(s) => navigate(`/sources/${s.id}`)} />}
    </>
  );
}

export function Stat({ label, value }: { label: string; value: number | null | undefined }) {
  return (
    <div className="stat">
      <div className="stat-value">{formatNumber(value)}</div>
      <div className="stat-label">{label}</div>
    </div>
  );
}
