import { useState, type FormEvent } from 'react';
import { api, errorWords, qs, type Page } from '../api';
import { Link, navigate } from '../router';
import { Badge, Button, Empty, ErrorNote, Field, Loading, PageHeader, Pager, formatDate, useLoad } from '../ui/kit';
import { Modal, useOverlay } from '../ui/overlay';

export interface Project {
  id: string;
  name: string;
  description: string | null;
  status: 'active' | 'archived';
  createdAt: string;
  updatedAt: string;
  counts?: { sources: number; documents: number; chunks: number };
}

export function ProjectsScreen() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [creating, setCreating] = useState(false);
  const list = useLoad(() => api.get<Page<Project>>(`/v1/projects${qs({ page, limit: 20, search, status })}`), [page, search, status]);

  return (
    <>
      <PageHeader title="Projects" subtitle="Each project gathers sources whose pages become searchable knowledge." actions={<Button variant="primary" onClick={() => setCreating(true)}>New project</Button>} />
      <div className="toolbar">
        <label className="sr-only" htmlFor="project-search">Search projects</label>
        <input id="project-search" type="search" placeholder="Search projects…" value={search} onChange={(e) => { setSearch(e.target.value); setPage(1); }} />
        <label className="sr-only" htmlFor="project-status">Status</label>
        <select id="project-status" value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}>
          <option value="">All statuses</option>
          <option value="active">Active</option>
          <option value="archived">Archived</option>
        </select>
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : list.data && list.data.data.length === 0 ? (
        <Empty title="No projects yet">Create one to start adding sources.</Empty>
      ) : (
        <div className="grid-cards">
          {list.data?.data.map((p) => (
            <Link key={p.id} to={`/projects/${p.id}`} className="card card-link">
              <div className="card-body">
                <div className="row between"><strong className="card-title">{p.name}</strong><Badge>{p.status}</Badge></div>
                <p className="muted clamp">{p.description || 'No description'}</p>
                <div className="muted small">Updated {formatDate(p.updatedAt)}</div>
              </div>
            </Link>
          ))}
        </div>
      )}
      {list.data && <Pager page={page} hasMore={list.data.pagination.hasMore} onPage={setPage} />}
      {creating && <ProjectForm onClose={() => setCreating(false)} onSaved={(p) => navigate(`/projects/${p.id}`)} />}
    </>
  );
}

export function ProjectForm({ project, onClose, onSaved }: { project?: Project; onClose: () => void; onSaved: (p: Project) => void }) {
  const { toast } = useOverlay();
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const body = { name, description: description || null };
      const saved = project ? await api.patch<Project>(`/v1/projects/${project.id}`, body) : await api.post<Project>('/v1/projects', body);
      toast(project ? 'Project saved' : 'Project created');
      onSaved(saved);
      onClose();
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={project ? 'Edit project' : 'New project'} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Name">{(id) => <input id={id} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} data-autofocus />}</Field>
        <Field label="Description" hint="Optional, up to 2000 characters">{(id, hint) => <textarea id={id} aria-describedby={hint} rows={3} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
        <div className="row end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>{project ? 'Save' : 'Create project'}</Button>
        </div>
      </form>
    </Modal>
  );
}
