import type { AppContext } from '../../../kernel/context.js';
import type { ProjectService } from '../../projects/service.js';
import type { SourceService } from '../../sources/service.js';
import { createEmbedder } from '../embed/settings.js';
import { indexRoutes } from './routes.js';
import { IndexService } from './service.js';
import { searchSettingsWithDefaults, type SearchSettings } from './settings.js';

/**
 * Builds the index for the app: the embedder from `ingestion.embedder`, vectors on unless
 * `ingestion.vector` (QUARRY_VECTOR) is off, hybrid tuning from the `search` section.
 */
export async function createIndex(ctx: AppContext, deps: { projects: ProjectService; sources: SourceService }) {
  const ingestion = (ctx.config.ingestion ?? {}) as { vector?: 'on' | 'off'; embedder?: unknown };
  const embedder = createEmbedder(ingestion.embedder ?? {});
  const index = await IndexService.open(ctx, embedder, searchSettingsWithDefaults(ctx.config.search as Partial<SearchSettings>), ingestion.vector ?? 'on');
  deps.projects.addCountProvider((projectId) => index.countsForProject(projectId));
  return { index, routes: indexRoutes(index, deps.projects, deps.sources) };
}
