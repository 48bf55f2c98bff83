import { useState, type FormEvent } from 'react';
import { api, errorWords, qs, type Page } from '../api';
import { useAuth, type User } from '../auth';
import { Badge, Button, Card, Empty, ErrorNote, Field, Loading, PageHeader, Pager, formatDate, useLoad } from '../ui/kit';
import { Modal, useOverlay } from '../ui/overlay';

const ROLES = ['viewer', 'editor', 'admin', 'super_admin'];
const ROLE_HELP: Record<string, string> = {
  viewer: 'reads everything it may see',
  editor: 'reads, creates and updates',
  admin: 'everything, including users and keys',
  super_admin: 'everything, including other admins',
};

interface UserRow extends User {
  permissions: string[];
  createdAt: string;
}

export function UsersScreen() {
  const { confirm, toast } = useOverlay();
  const { session } = useAuth();
  const [page, setPage] = useState(1);
  const users = useLoad(() => api.get<Page<UserRow>>(`/api/admin/users${qs({ page, limit: 20 })}`), [page]);
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<UserRow | null>(null);
  const me = session?.kind === 'user' ? session.user.id : null;

  const remove = async (u: UserRow) => {
    if (!(await confirm('Remove user?', <>{u.name} ({u.email}) will no longer be able to sign in. Their content stays.</>, 'Remove user'))) return;
    try {
      await api.del(`/api/admin/users/${u.id}`);
      toast(`${u.name} removed`);
      void users.reload();
    } catch (err) {
      toast(errorWords(err), 'error');
    }
  };

  return (
    <>
      <PageHeader title="Users" subtitle="People who can sign in to this Quarry." actions={<Button variant="primary" onClick={() => setInviting(true)}>Invite user</Button>} />
      <Card>
        <ErrorNote error={users.error} />
        {users.loading && !users.data && <Loading />}
        {users.data && users.data.data.length === 0 && <Empty title="No users yet" />}
        {users.data && users.data.data.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th>Name</th><th>E-mail</th><th>Role</th><th>Extra permissions</th><th>Joined</th><th><span className="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {users.data.data.map((u) => (
                  <tr key={u.id}>
                    <td><strong>{u.name}</strong>{u.id === me && <span className="muted small"> (you)</span>}</td>
                    <td>{u.email}</td>
                    <td><Badge tone={u.role.includes('admin') ? 'violet' : u.role === 'editor' ? 'blue' : 'gray'}>{u.role}</Badge></td>
                    <td>{u.permissions?.length ? <span className="perm-list">{u.permissions.map((p) => <code key={p} className="perm">{p}</code>)}</span> : <span className="muted">—</span>}</td>
                    <td>{formatDate(u.createdAt)}</td>
                    <td className="actions">
                      <Button onClick={() => setEditing(u)} aria-label={`Edit ${u.name}`}>Edit</Button>
                      <Button variant="danger" onClick={() => remove(u)} aria-label={`Remove ${u.name}`}>Remove</Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {users.data && <Pager page={page} hasMore={users.data.pagination.hasMore} onPage={setPage} />}
      </Card>
      {inviting && <InviteForm onClose={() => setInviting(false)} onDone={() => void users.reload()} />}
      {editing && <EditUser user={editing} onClose={() => setEditing(null)} onDone={() => void users.reload()} />}
    </>
  );
}

function RoleSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <Field label="Role" hint={ROLE_HELP[value]}>
      {(id, hint) => (
        <select id={id} aria-describedby={hint} value={value} onChange={(e) => onChange(e.target.value)}>
          {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      )}
    </Field>
  );
}

function InviteForm({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { toast } = useOverlay();
  const [form, setForm] = useState({ email: '', name: '', password: '', role: 'editor' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await api.post('/api/auth/invite', form);
      toast(`${form.name} invited`);
      onDone();
      onClose();
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="Invite a user" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Name">{(id) => <input id={id} required maxLength={200} value={form.name} onChange={(e) => set('name')(e.target.value)} data-autofocus />}</Field>
        <Field label="E-mail">{(id) => <input id={id} type="email" required value={form.email} onChange={(e) => set('email')(e.target.value)} />}</Field>
        <Field label="Initial password" hint="At least 8 characters; they can change it later">{(id, hint) => <input id={id} aria-describedby={hint} type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={(e) => set('password')(e.target.value)} />}</Field>
        <RoleSelect value={form.role} onChange={set('role')} />
        <div className="row end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>Invite</Button>
        </div>
      </form>
    </Modal>
  );
}

function EditUser({ user, onClose, onDone }: { user: UserRow; onClose: () => void; onDone: () => void }) {
  const { toast } = useOverlay();
  const [name, setName] = useState(user.name);
  const [role, setRole] = useState(user.role);
  const [permissions, setPermissions] = useState((user.permissions ?? []).join('\n'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await api.patch(`/api/admin/users/${user.id}`, { name, role, permissions: permissions.split(/[\s,]+/).filter(Boolean) });
      toast(`${name} saved`);
      onDone();
      onClose();
    } catch (err) {
      setError(errorWords(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`Edit ${user.name}`} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {error && <div className="alert alert-error" role="alert">{error}</div>}
        <Field label="Name">{(id) => <input id={id} required value={name} onChange={(e) => setName(e.target.value)} data-autofocus />}</Field>
        <RoleSelect value={role} onChange={setRole} />
        <Field label="Extra permissions" hint="One per line as action:resource, e.g. delete:posts">{(id, hint) => <textarea id={id} aria-describedby={hint} rows={3} className="mono" value={permissions} onChange={(e) => setPermissions(e.target.value)} />}</Field>
        <div className="row end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>Save</Button>
        </div>
      </form>
    </Modal>
  );
}
