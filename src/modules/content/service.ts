import { ChangeAwareCache } from '../../kernel/db/change-aware-cache.js';
import type { Principal } from '../../kernel/auth/principal.js';
import type { AnyDb } from '../../kernel/db/dialect.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { isUniqueViolation } from '../../kernel/db/dialect.js';
import { AppError } from '../../kernel/errors/app-error.js';
import { offsetOf, toPage, type Page } from '../../kernel/http/pagination.js';
import { validatorFor } from '../../kernel/validation.js';
import type { ModelDefinition } from './models.js';
import type { ContentPolicy } from './policy.js';
import type { Condition, SortKey } from './query.js';
import type { ContentRepository } from './repository.js';
import { createBodySchema, patchBodySchema, type ContentRecord } from './schemas.js';

export interface ContentChange {
  action: 'created' | 'updated' | 'deleted';
  model: string;
  /** The whole record (after the change; before it for deletions), unfiltered. */
  record: ContentRecord;
}
/** Runs inside the transaction of the change: what it writes commits or rolls back with it (the webhook outbox). */
export type ChangeListener = (trx: AnyDb, change: ContentChange) => Promise<void>;

/** Dates are stored and answered in one form, so they sort and compare as text. */
function normalize(model: ModelDefinition, values: Record<string, unknown>) {
  for (const f of model.fields)
    if (f.type === 'date' && typeof values[f.name] === 'string') values[f.name] = new Date(values[f.name] as string).toISOString();
  return values;
}

interface CompiledModel {
  def: ModelDefinition;
  validateCreate: (v: unknown) => Record<string, unknown>;
  validatePatch: (v: unknown) => Record<string, unknown>;
}

export class ContentService {
  private readonly compiled = new Map<string, CompiledModel>();
  private readonly listeners: ChangeListener[] = [];

  // Lists as stored (before each caller's fields are picked), exact: dropped at any database change.
  private readonly lists: ChangeAwareCache<ContentRecord[]>;

  constructor(
    private readonly repo: ContentRepository,
    readonly policy: ContentPolicy,
    readonly models: ModelDefinition[],
    changeToken?: () => string,
  ) {
    this.lists = new ChangeAwareCache(changeToken, 1000);
    for (const def of models) {
      const create = validatorFor(createBodySchema(def), '');
      const patch = validatorFor(patchBodySchema(def), '');
      this.compiled.set(def.name, { def, validateCreate: (v) => normalize(def, create(v)), validatePatch: (v) => normalize(def, patch(v)) });
    }
  }

  onChange(listener: ChangeListener) {
    this.listeners.push(listener);
  }

  model(name: string): ModelDefinition {
    const found = this.compiled.get(name);
    if (!found) throw new AppError('model_not_found', `There is no content model "${name}"`);
    return found.def;
  }

  /** Leaves out the fields the caller may not read. */
  present(principal: Principal | null, model: ModelDefinition, record: ContentRecord, readable = this.policy.readableFields(principal, model)): ContentRecord {
    const out: ContentRecord = { id: record.id, createdAt: record.createdAt, updatedAt: record.updatedAt, createdBy: record.createdBy };
    for (const f of model.fields) if (readable.has(f.name)) out[f.name] = record[f.name];
    return out;
  }

  /** Filtering or sorting on a hidden field would leak it, so that is refused like writing it. */
  private assertQueryable(principal: Principal | null, model: ModelDefinition, fields: string[]) {
    const readable = this.policy.readableFields(principal, model);
    const hidden = fields.filter((f) => model.fields.some((d) => d.name === f) && !readable.has(f));
    if (hidden.length)
      throw new AppError('forbidden', `You may not filter or sort on ${hidden.join(', ')}`, {
        details: hidden.map((field) => ({ field, message: 'is not readable by this credential' })),
      });
  }

  async query(principal: Principal | null, modelName: string, q: { where: Condition[]; sort: SortKey[]; limit: number; offset: number }) {
    const model = this.model(modelName);
    this.policy.assert(principal, model, 'read');
    this.assertQueryable(principal, model, [...q.where.map((c) => c.field), ...q.sort.map((s) => s.field)]);
    const rows = await this.lists.get(JSON.stringify([model.name, q]), () => this.repo.list(model, q));
    const readable = this.policy.readableFields(principal, model);
    return { rows: rows.map((r) => this.present(principal, model, r, readable)), model };
  }

  async list(principal: Principal | null, modelName: string, q: { where: Condition[]; sort: SortKey[]; page: number; limit: number }): Promise<Page<ContentRecord>> {
    const { rows } = await this.query(principal, modelName, { ...q, offset: offsetOf(q.page, q.limit) });
    return toPage(rows, q.page, q.limit);
  }

  count(modelName: string, where: Condition[]) {
    return this.repo.count(this.model(modelName), where);
  }

  async get(principal: Principal | null, modelName: string, id: string): Promise<ContentRecord> {
    const model = this.model(modelName);
    this.policy.assert(principal, model, 'read');
    const record = await this.repo.find(model, id);
    if (!record) throw new AppError('record_not_found', `${modelName} has no record ${id}`);
    return this.present(principal, model, record);
  }

  /** Batch read for GraphQL relation loaders: unreadable models yield nothing. */
  async getMany(principal: Principal | null, modelName: string, ids: string[]): Promise<Map<string, ContentRecord>> {
    const model = this.model(modelName);
    if (!this.policy.can(principal, model, 'read')) return new Map();
    const rows = await this.repo.findMany(model, [...new Set(ids)]);
    return new Map(rows.map((r) => [r.id, this.present(principal, model, r)]));
  }

  usersByIds = (ids: string[]) => this.repo.usersByIds([...new Set(ids)]);

  private async checkReferences(repo: ContentRepository, model: ModelDefinition, values: Record<string, unknown>, exceptId?: string) {
    for (const f of model.fields) {
      const value = values[f.name];
      if (value === undefined || value === null) continue;
      if (f.type === 'relation') {
        const table = f.to === 'user' ? 'users' : f.to === 'file' ? 'files' : this.model(f.to!).table;
        if (!(await repo.existingIds(table, [value as string])).has(value as string))
          throw new AppError('validation_failed', `${f.name} refers to a ${f.to} that does not exist: ${value}`, {
            details: [{ field: f.name, message: `refers to a ${f.to} that does not exist` }],
          });
      }
      if (f.unique && (await repo.valueTaken(model, f.name, value, exceptId))) throw this.notUnique(model, f.name);
    }
  }

  private notUnique(model: ModelDefinition, field: string) {
    return new AppError('field_not_unique', `Another ${model.singular} already has this ${field}`, { details: [{ field, message: 'must be unique' }] });
  }

  private async write<T>(model: ModelDefinition, values: Record<string, unknown>, fn: (repo: ContentRepository, trx: AnyDb) => Promise<T>): Promise<T> {
    try {
      return await this.repo.transaction(fn);
    } catch (err) {
      if (isUniqueViolation(err)) throw this.notUnique(model, model.fields.find((f) => f.unique && values[f.name] != null)?.name ?? 'id');
      throw err;
    }
  }

  private async emit(trx: AnyDb, change: ContentChange) {
    for (const listener of this.listeners) await listener(trx, change);
  }

  async create(principal: Principal | null, modelName: string, input: unknown): Promise<ContentRecord> {
    const model = this.model(modelName);
    this.policy.assert(principal, model, 'create');
    const compiled = this.compiled.get(modelName)!;
    const given = input && typeof input === 'object' ? Object.keys(input) : [];
    const values = compiled.validateCreate(input);
    this.policy.assertWritable(principal, model, given);
    const now = nowIso();
    const record: ContentRecord = { id: newId(model.singular.slice(0, 12).toLowerCase()), createdAt: now, updatedAt: now, createdBy: principal?.id ?? null };
    for (const f of model.fields) record[f.name] = values[f.name] ?? null;
    await this.write(model, values, async (repo, trx) => {
      await this.checkReferences(repo, model, values);
      await repo.insert(model, record);
      await this.emit(trx, { action: 'created', model: model.name, record });
    });
    return this.present(principal, model, record);
  }

  async update(principal: Principal | null, modelName: string, id: string, input: unknown): Promise<ContentRecord> {
    const model = this.model(modelName);
    this.policy.assert(principal, model, 'update');
    const changes = this.compiled.get(modelName)!.validatePatch(input);
    this.policy.assertWritable(principal, model, Object.keys(changes));
    const updated = await this.write(model, changes, async (repo, trx) => {
      const current = await repo.find(model, id);
      if (!current) throw new AppError('record_not_found', `${modelName} has no record ${id}`);
      await this.checkReferences(repo, model, changes, id);
      const next: ContentRecord = { ...current, ...changes, updatedAt: nowIso() };
      await repo.update(model, id, changes, next.updatedAt);
      await this.emit(trx, { action: 'updated', model: model.name, record: next });
      return next;
    });
    return this.present(principal, model, updated);
  }

  async remove(principal: Principal | null, modelName: string, id: string): Promise<ContentRecord> {
    const model = this.model(modelName);
    this.policy.assert(principal, model, 'delete');
    const removed = await this.repo.transaction(async (repo, trx) => {
      const current = await repo.find(model, id);
      if (!current || !(await repo.delete(model, id))) throw new AppError('record_not_found', `${modelName} has no record ${id}`);
      await this.emit(trx, { action: 'deleted', model: model.name, record: current });
      return current;
    });
    return this.present(principal, model, removed);
  }
}
