import { useEffect, useState, type FormEvent } from 'react';
import { api, errorWords, qs, type Page } from '../api';
import { renderMarkdown } from '../markdown';
import { loadModels, type ModelField } from '../models';
import { Link, navigate } from '../router';
import { Button, Card, ErrorNote, Field, Loading, PageHeader, useLoad } from '../ui/kit';
import { useOverlay } from '../ui/overlay';
import { humanize, type ContentRecord } from './Content';
import { FilePicker } from './FilePicker';

type Values = Record<string, unknown>;

const toLocalInput = (iso: unknown) => {
  if (typeof iso !== 'string' || !iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export function ContentEditScreen({ model: name, id }: { model: string; id?: string }) {
  const { confirm, toast } = useOverlay();
  const models = useLoad(() => loadModels(), []);
  const record = useLoad(() => (id ? api.get<{ data: ContentRecord }>(`/api/${name}/${id}`).then((r) => r.data) : Promise.resolve(null)), [name, id]);
  const [values, setValues] = useState<Values>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => {
    if (record.data) setValues(record.data);
  }, [record.data]);

  const model = models.data?.find((m) => m.name === name);
  if (models.error || record.error) return <ErrorNote error={models.error ?? record.error} />;
  if (!models.data || (id && !record.data)) return <Loading />;
  if (!model) return <ErrorNote error={new Error(`No model “${name}”`)} />;
  // A field missing from the record is one this user may not read: it is not shown.
  const fields = id && record.data ? model.fields.filter((f) => f.name in record.data!) : model.fields;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const body: Values = {};
    for (const f of fields) {
      const v = values[f.name];
      if (id ? JSON.stringify(v) === JSON.stringify(record.data?.[f.name]) : v === undefined || v === '') continue;
      body[f.name] = v === '' ? null : v;
    }
    try {
      if (id) {
        if (Object.keys(body).length) await api.patch(`/api/${name}/${id}`, body);
        toast('Saved');
        void record.reload();
      } else {
        const created = await api.post<{ data: ContentRecord }>(`/api/${name}`, body);
        toast('Created');
        navigate(`/content/${name}/${created.data.id}`, { replace: true });
      }
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!(await confirm('Delete entry?', 'This entry will be deleted. This cannot be undone.', 'Delete'))) return;
    try {
      await api.del(`/api/${name}/${id}`);
      toast('Deleted');
      navigate(`/content/${name}`);
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };
  const title = id ? String(record.data?.title ?? record.data?.name ?? id) : `New ${name.replace(/s$/, '')}`;

  return (
    <>
      <PageHeader crumbs={<><Link to="/content">Content</Link> / <Link to={`/content/${name}`}>{name}</Link> /</>} title={title} actions={id && <Button variant="danger" onClick={remove}>Delete</Button>} />
      <Card>
        <form className="stack form-wide" onSubmit={submit}>
          {error && <div className="alert alert-error" role="alert">{error}</div>}
          {fields.map((f) => (
            <FieldInput key={f.name} field={f} value={values[f.name]} onChange={(v) => setValues((all) => ({ ...all, [f.name]: v }))} />
          ))}
          <div className="row end">
            <Link className="btn btn-secondary" to={`/content/${name}`}>Back</Link>
            <Button type="submit" variant="primary" busy={busy}>{id ? 'Save' : 'Create'}</Button>
          </div>
        </form>
      </Card>
    </>
  );
}

function FieldInput({ field, value, onChange }: { field: ModelField; value: unknown; onChange: (v: unknown) => void }) {
  const label = humanize(field.name);
  switch (field.type) {
    case 'richText':
      return <MarkdownEditor label={label} value={String(value ?? '')} onChange={onChange} />;
    case 'boolean':
      return <label className="check"><input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}</label>;
    case 'number':
      return <Field label={label}>{(id) => <input id={id} type="number" step="any" value={value === null || value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} />}</Field>;
    case 'date':
      return <Field label={label}>{(id) => <input id={id} type="datetime-local" value={toLocalInput(value)} onChange={(e) => onChange(e.target.value ? new Date(e.target.value).toISOString() : null)} />}</Field>;
    case 'select':
      return (
        <Field label={label}>
          {(id) => (
            <select id={id} value={String(value ?? '')} onChange={(e) => onChange(e.target.value || null)}>
              <option value="">—</option>
              {field.options?.map((o) => <option key={o} value={o}>{o}</option>)}
            </select>
          )}
        </Field>
      );
    case 'array':
      return <Field label={label} hint="Comma-separated">{(id, hint) => <input id={id} aria-describedby={hint} value={Array.isArray(value) ? value.join(', ') : ''} onChange={(e) => onChange(e.target.value.split(',').map((s) => s.trim()).filter(Boolean))} />}</Field>;
    case 'json':
      return <JsonInput label={label} value={value} onChange={onChange} />;
    case 'relation':
      return field.to === 'file' ? <FilePicker label={label} value={(value as string | null) ?? null} onChange={onChange} /> : <RelationPicker label={label} to={field.to ?? ''} value={(value as string | null) ?? null} onChange={onChange} />;
    default:
      return <Field label={label}>{(id) => <input id={id} type={field.type === 'email' ? 'email' : 'text'} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />}</Field>;
  }
}

function MarkdownEditor({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  return (
    <div className="field">
      <div className="row between">
        <span className="label" id={`md-${label}`}>{label}</span>
        <div className="tabs" role="tablist" aria-label={`${label} editor`}>
          <button type="button" role="tab" aria-selected={tab === 'write'} className={tab === 'write' ? 'active' : ''} onClick={() => setTab('write')}>Write</button>
          <button type="button" role="tab" aria-selected={tab === 'preview'} className={tab === 'preview' ? 'active' : ''} onClick={() => setTab('preview')}>Preview</button>
        </div>
      </div>
      {tab === 'write' ? (
        <textarea aria-labelledby={`md-${label}`} className="mono" rows={10} value={value} onChange={(e) => onChange(e.target.value)} placeholder="Markdown: # heading, **bold**, - lists, [links](https://…)" />
      ) : (
        <div className="markdown-preview" role="tabpanel" dangerouslySetInnerHTML={{ __html: renderMarkdown(value) || '<p class="muted">Nothing to preview</p>' }} />
      )}
    </div>
  );
}

function JsonInput({ label, value, onChange }: { label: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined || value === null ? '' : JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <Field label={label} error={bad ? 'Not valid JSON' : undefined}>
      {(id, hint) => (
        <textarea id={id} aria-describedby={hint} className="mono" rows={4} value={text} onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(e.target.value.trim() ? JSON.parse(e.target.value) : null);
            setBad(false);
          } catch {
            setBad(true);
          }
        }} />
      )}
    </Field>
  );
}

/** Users come from the admin list; other models from their own list endpoint. */
function RelationPicker({ label, to, value, onChange }: { label: string; to: string; value: string | null; onChange: (v: string | null) => void }) {
  const options = useLoad(async () => {
    const path = to === 'user' ? '/api/admin/users' : `/api/${to}`;
    const page = await api.get<Page<Record<string, unknown> & { id: string }>>(`${path}${qs({ limit: 100 })}`);
    return page.data.map((r) => ({ id: r.id, text: String(r.name ?? r.title ?? r.email ?? r.id) }));
  }, [to]);
  return (
    <Field label={label} hint={options.error ? `Could not list ${to}s: ${errorWords(options.error)}` : undefined}>
      {(id, hint) => (
        <select id={id} aria-describedby={hint} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
          <option value="">—</option>
          {value && !options.data?.some((o) => o.id === value) && <option value={value}>{value}</option>}
          {options.data?.map((o) => <option key={o.id} value={o.id}>{o.text}</option>)}
        </select>
      )}
    </Field>
  );
}
