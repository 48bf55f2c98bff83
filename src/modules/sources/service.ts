import type { BackgroundTasks } from '../../kernel/background.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { AppError, notFound } from '../../kernel/errors/app-error.js';
import { toPage, type Page } from '../../kernel/http/pagination.js';
import type { ProjectService } from '../projects/service.js';
import type { SourceRepository } from './repository.js';
import type { CreateSourceBody, ListSourcesQuery, PatchSourceBody, Source } from './schemas.js';
import { sourceTypeOf } from './source-types.js';

function defaultName(config: { urls?: string[] }): string {
  const first = config.urls?.[0];
  return first ? new URL(first).hostname : 'Untitled source';
}

export class SourceService {
  constructor(
    private readonly repo: SourceRepository,
    private readonly projects: ProjectService,
    private readonly background: BackgroundTasks,
  ) {}

  private present(source: Source): Source {
    const type = sourceTypeOf(source.type);
    return { ...source, config: type.present(source.config as never) };
  }

  async create(input: CreateSourceBody): Promise<Source> {
    const type = sourceTypeOf(input.type);
    const config = type.parse(input.config);
    await this.projects.requireActive(input.projectId);
    const id = newId('src');
    await this.repo.insert({
      id,
      projectId: input.projectId,
      type: input.type,
      name: input.name?.trim() ?? defaultName(config),
      config,
      createdAt: nowIso(),
    });
    return this.get(id);
  }

  /** The stored record, secrets included: for the ingestion engine, never for an API answer. */
  async getInternal(id: string): Promise<Source> {
    const source = await this.repo.find(id);
    if (!source) throw notFound('source_not_found', id);
    return source;
  }

  async get(id: string): Promise<Source> {
    return this.present(await this.getInternal(id));
  }

  async list(query: ListSourcesQuery): Promise<Page<Source>> {
    await this.projects.get(query.projectId);
    const rows = await this.repo.list(query);
    return toPage(rows.map((s) => this.present(s)), query.page, query.limit);
  }

  async update(id: string, patch: PatchSourceBody): Promise<Source> {
    for (const field of ['type', 'projectId'] as const)
      if (patch[field] !== undefined)
        throw new AppError('immutable_field', `${field} cannot be changed; create a new source instead`, {
          details: [{ field, message: 'cannot be changed' }],
        });
    const current = await this.getInternal(id);
    const type = sourceTypeOf(current.type);
    // A partial config merges over the stored one, so `{ crawlDepth: 2 }` keeps the URLs.
    const config = patch.config ? type.parse({ ...current.config, ...patch.config }, current.config) : current.config;
    await this.repo.update(id, { name: patch.name?.trim() ?? current.name, config, updatedAt: nowIso() });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.repo.softDelete(id, nowIso()))) throw notFound('source_not_found', id);
    this.background.run('purge sources', () => this.repo.purgeDeleted());
  }

  sweep() {
    this.background.run('purge sources', () => this.repo.purgeDeleted());
  }
}
