import { useRef, useState } from 'react';
import { api, errorWords, type Page } from '../api';
import { Button, Field, useLoad } from '../ui/kit';
import { useOverlay } from '../ui/overlay';

interface FileRow {
  id: string;
  url?: string;
  filename?: string;
  originalName?: string;
  name?: string;
  alt?: string | null;
  folder?: string | null;
  mimeType?: string;
}

const fileName = (f: FileRow) => f.originalName ?? f.filename ?? f.name ?? f.id;

/** Pick an uploaded file, or upload one (with alt text and folder) and pick it. */
export function FilePicker({ label, value, onChange }: { label: string; value: string | null; onChange: (v: string | null) => void }) {
  const { toast } = useOverlay();
  const files = useLoad(() => api.get<Page<FileRow>>('/api/files?limit=100'), []);
  const input = useRef<HTMLInputElement>(null);
  const [alt, setAlt] = useState('');
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const chosen = files.data?.data.find((f) => f.id === value);

  const upload = async () => {
    const file = input.current?.files?.[0];
    if (!file) return setError('Choose a file first');
    const form = new FormData();
    if (alt) form.append('alt', alt);
    if (folder) form.append('folder', folder);
    form.append('file', file);
    setBusy(true);
    setError('');
    try {
      const res = await api.post<{ data?: FileRow } & FileRow>('/api/upload', form);
      const uploaded = res.data ?? res;
      toast(`Uploaded ${file.name}`);
      await files.reload();
      onChange(uploaded.id);
      if (input.current) input.current.value = '';
      setAlt('');
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="file-picker">
      <legend>{label}</legend>
      <div className="row wrap">
        {chosen?.url && chosen.mimeType?.startsWith('image/') && <img src={chosen.url} alt={chosen.alt ?? ''} className="thumb" />}
        <Field label="Chosen file">
          {(id) => (
            <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
              <option value="">None</option>
              {value && !chosen && <option value={value}>{value}</option>}
              {files.data?.data.map((f) => <option key={f.id} value={f.id}>{fileName(f)}{f.folder ? ` (${f.folder})` : ''}</option>)}
            </select>
          )}
        </Field>
      </div>
      <div className="upload-row">
        <Field label="Upload a file">{(id) => <input id={id} ref={input} type="file" />}</Field>
        <Field label="Alt text">{(id) => <input id={id} value={alt} onChange={(e) => setAlt(e.target.value)} placeholder="Describe the image" />}</Field>
        <Field label="Folder">{(id) => <input id={id} value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="e.g. covers" />}</Field>
        <Button onClick={upload} busy={busy}>Upload</Button>
      </div>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
    </fieldset>
  );
}
