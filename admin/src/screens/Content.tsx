import { useState, type FormEvent } from 'react';
import { api, qs, type Page } from '../api';
import { loadModels, type ContentModel, type ModelField } from '../models';
import { Link } from '../router';
import { Badge, Button, Card, Empty, ErrorNote, Loading, PageHeader, Pager, formatDate, useLoad } from '../ui/kit';

export type ContentRecord = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };

export function ContentModelsScreen() {
  const models = useLoad(() => loadModels(), []);
  return (
    <>
      <PageHeader title="Content" subtitle="The content models declared in this Quarry's configuration." />
      <ErrorNote error={models.error} />
      {models.loading && <Loading />}
      {models.data && models.data.length === 0 && <Empty title="No content models">Declare models in quarry.config.json.</Empty>}
      <div className="grid-cards">
        {models.data?.map((m) => (
          <Link key={m.name} to={`/content/${m.name}`} className="card card-link">
            <div className="card-body">
              <strong className="card-title">{humanize(m.name)}</strong>
              <p className="muted small">{m.fields.map((f) => f.name).join(', ')}</p>
            </div>
          </Link>
        ))}
      </div>
    </>
  );
}

/** `publishedAt` → "Published at". */
export const humanize = (name: string) => name.replace(/([A-Z])/g, ' $1').toLowerCase().replace(/^./, (c) => c.toUpperCase());

const OPS: Record<string, string> = { eq: 'is', ne: 'is not', contains: 'contains', gt: '>', gte: '≥', lt: '<', lte: '≤' };

/** Short, readable cell text for any field type. */
export function cellText(field: ModelField | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field?.type === 'date' || (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value))) return formatDate(value as string);
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function ContentListScreen({ model: name }: { model: string }) {
  const models = useLoad(() => loadModels(), []);
  const model: ContentModel | undefined = models.data?.find((m) => m.name === name);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState('-createdAt');
  const [filter, setFilter] = useState({ field: '', op: 'contains', value: '' });
  const [applied, setApplied] = useState<typeof filter | null>(null);
  const where = applied && applied.field ? { [`where[${applied.field}][${applied.op}]`]: applied.value } : {};
  const rows = useLoad(() => api.get<Page<ContentRecord>>(`/api/${name}${qs({ page, limit: 20, sort, ...where })}`), [name, page, sort, JSON.stringify(applied)]);

  if (models.error) return <ErrorNote error={models.error} />;
  if (!models.data) return <Loading />;
  if (!model) return <Empty title={`No model “${name}”`} />;
  const columns = model.fields.filter((f) => !['richText', 'json'].includes(f.type)).slice(0, 5);
  const sortBy = (field: string) => {
    setSort(sort === field ? `-${field}` : field);
    setPage(1);
  };
  const applyFilter = (e: FormEvent) => {
    e.preventDefault();
    setApplied(filter.field && filter.value ? filter : null);
    setPage(1);
  };
  const header = (field: string, label: string) => {
    const dir = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined;
    return (
      <th key={field} aria-sort={dir ?? 'none'}>
        <button type="button" className="sort-btn" onClick={() => sortBy(field)}>
          {label} <span aria-hidden="true">{dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : '↕'}</span>
        </button>
      </th>
    );
  };

  return (
    <>
      <PageHeader
        crumbs={<><Link to="/content">Content</Link> /</>}
        title={humanize(name)}
        actions={<Link className="btn btn-primary" to={`/content/${name}/new`}>New {name.replace(/s$/, '')}</Link>}
      />
      <form className="toolbar" onSubmit={applyFilter} aria-label="Filter">
        <label className="sr-only" htmlFor="filter-field">Filter field</label>
        <select id="filter-field" value={filter.field} onChange={(e) => setFilter({ ...filter, field: e.target.value })}>
          <option value="">Filter by…</option>
          {model.fields.filter((f) => f.type !== 'json').map((f) => <option key={f.name} value={f.name}>{humanize(f.name)}</option>)}
        </select>
        <label className="sr-only" htmlFor="filter-op">Operator</label>
        <select id="filter-op" value={filter.op} onChange={(e) => setFilter({ ...filter, op: e.target.value })}>
          {Object.entries(OPS).map(([op, label]) => <option key={op} value={op}>{label}</option>)}
        </select>
        <label className="sr-only" htmlFor="filter-value">Value</label>
        <input id="filter-value" placeholder="Value" value={filter.value} onChange={(e) => setFilter({ ...filter, value: e.target.value })} />
        <Button type="submit">Apply</Button>
        {applied && <Button variant="ghost" onClick={() => { setApplied(null); setFilter({ field: '', op: 'contains', value: '' }); }}>Clear</Button>}
      </form>
      <Card>
        <ErrorNote error={rows.error} />
        {rows.loading && !rows.data && <Loading />}
        {rows.data && rows.data.data.length === 0 && <Empty title="Nothing here yet" />}
        {rows.data && rows.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr>{columns.map((c) => header(c.name, humanize(c.name)))}{header('updatedAt', 'Updated')}</tr></thead>
              <tbody>
                {rows.data.data.map((r) => (
                  <tr key={r.id}>
                    {columns.map((c, i) => (
                      <td key={c.name}>
                        {i === 0 ? <Link to={`/content/${name}/${r.id}`}>{cellText(c, r[c.name])}</Link> : c.type === 'select' && r[c.name] ? <Badge tone={r[c.name] === 'published' ? 'green' : 'gray'}>{String(r[c.name])}</Badge> : cellText(c, r[c.name])}
                      </td>
                    ))}
                    <td>{formatDate(r.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {rows.data && <Pager page={page} hasMore={rows.data.pagination.hasMore} onPage={setPage} />}
      </Card>
    </>
  );
}
