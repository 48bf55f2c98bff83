import type { BackgroundTasks } from '../../kernel/background.js';
import { ChangeAwareCache } from '../../kernel/db/change-aware-cache.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { AppError, notFound } from '../../kernel/errors/app-error.js';
import { toPage, type Page } from '../../kernel/http/pagination.js';
import type { ProjectRepository } from './repository.js';
import type { CreateProjectBody, ListProjectsQuery, PatchProjectBody, Project, ProjectDocument } from './schemas.js';

const MAX_JSON_BYTES = 16 * 1024;

/** Other modules report what they hold for a project without this module knowing them. */
export type ProjectCountProvider = (projectId: string) => Promise<Partial<ProjectDocument['counts']>>;

function checkJsonSize(field: 'metadata' | 'features', value: unknown) {
  if (value !== undefined && Buffer.byteLength(JSON.stringify(value)) > MAX_JSON_BYTES)
    throw new AppError('validation_failed', `${field} must be at most 16 KB of JSON`, {
      details: [{ field, message: 'must be at most 16 KB of JSON' }],
    });
}

export class ProjectService {
  private readonly countProviders: ProjectCountProvider[] = [];
  private readonly documents: ChangeAwareCache<ProjectDocument>;
  private readonly pages: ChangeAwareCache<Page<Project>>;

  constructor(
    private readonly repo: ProjectRepository,
    private readonly background: BackgroundTasks,
    changeToken?: () => string,
  ) {
    this.documents = new ChangeAwareCache(changeToken);
    this.pages = new ChangeAwareCache(changeToken, 1000);
  }

  addCountProvider(provider: ProjectCountProvider) {
    this.countProviders.push(provider);
  }

  async create(input: CreateProjectBody): Promise<Project> {
    checkJsonSize('metadata', input.metadata);
    checkJsonSize('features', input.features);
    const now = nowIso();
    const project: Project = {
      id: newId('prj'),
      name: input.name.trim(),
      description: input.description ?? null,
      status: input.status ?? 'active',
      metadata: input.metadata ?? {},
      features: input.features ?? {},
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.insert(project);
    return project;
  }

  list(query: ListProjectsQuery): Promise<Page<Project>> {
    const key = JSON.stringify([query.page, query.limit, query.status ?? null, query.search ?? null]);
    return this.pages.get(key, async () => toPage(await this.repo.list(query), query.page, query.limit));
  }

  async get(id: string): Promise<Project> {
    const project = await this.repo.find(id);
    if (!project) throw notFound('project_not_found', id);
    return project;
  }

  /** Throws `project_archived` when the project takes no new work. */
  async requireActive(id: string): Promise<Project> {
    const project = await this.get(id);
    if (project.status === 'archived')
      throw new AppError('project_archived', `Project ${id} is archived; set its status to "active" first`);
    return project;
  }

  /** The full project with its counts; served from an exact cache while the database is unchanged. */
  document(id: string): Promise<ProjectDocument> {
    return this.documents.get(id, () => this.loadDocument(id));
  }

  private async loadDocument(id: string): Promise<ProjectDocument> {
    const found = await this.repo.findWithCounts(id);
    if (!found) throw notFound('project_not_found', id);
    const { project } = found;
    const counts = { sources: found.sources, documents: 0, chunks: 0 };
    for (const provider of this.countProviders) Object.assign(counts, await provider(id));
    return { ...project, counts, sourceCount: counts.sources };
  }

  async update(id: string, patch: PatchProjectBody): Promise<ProjectDocument> {
    checkJsonSize('metadata', patch.metadata);
    checkJsonSize('features', patch.features);
    const current = await this.get(id);
    const next: Project = {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
      ...(patch.features !== undefined ? { features: patch.features } : {}),
      updatedAt: nowIso(),
    };
    await this.repo.update(next);
    return this.document(id);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.repo.softDelete(id, nowIso()))) throw notFound('project_not_found', id);
    this.background.run('purge projects', () => this.repo.purgeDeleted());
  }

  /** Finishes purges a crash interrupted. */
  sweep() {
    this.background.run('purge projects', () => this.repo.purgeDeleted());
  }
}
