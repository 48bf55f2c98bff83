import type { ConfigSection } from './kernel/config/load.js';
import type { AppContext } from './kernel/context.js';
import { migrateToLatest, type MigrationSet } from './kernel/db/migrate.js';
import { createHttpServer, type App, type RoutePlugin } from './kernel/http/server.js';
import type { CliCommand } from './kernel/module.js';
import { adminUiRoutes } from './modules/admin-ui/routes.js';
import { apiKeyCommands } from './modules/api-keys/cli.js';
import { contentConfigSections, contentMigrations, createContentSurface, type ContentServices } from './modules/content/wiring.js';
import { apiKeyMigrations } from './modules/api-keys/migrations.js';
import { ApiKeyRepository } from './modules/api-keys/repository.js';
import { ApiKeyService } from './modules/api-keys/service.js';
import { ingestionMigrations } from './modules/ingestion/migrations.js';
import { RunRepository } from './modules/ingestion/run-repository.js';
import { ingestionRoutes } from './modules/ingestion/routes.js';
import { IngestionService } from './modules/ingestion/service.js';
import { ingestionConfig } from './modules/ingestion/config.js';
import { createIngestionRuntime } from './modules/ingestion/pipeline/wiring.js';
import { indexMigrations } from './modules/ingestion/index/migrations.js';
import type { IndexService } from './modules/ingestion/index/service.js';
import { searchConfigSection } from './modules/ingestion/index/settings.js';
import { createIndex } from './modules/ingestion/index/wiring.js';
import { projectMigrations } from './modules/projects/migrations.js';
import { ProjectRepository } from './modules/projects/repository.js';
import { projectRoutes } from './modules/projects/routes.js';
import { ProjectService } from './modules/projects/service.js';
import { sourceMigrations } from './modules/sources/migrations.js';
import { SourceRepository } from './modules/sources/repository.js';
import { sourceRoutes } from './modules/sources/routes.js';
import { SourceService } from './modules/sources/service.js';
import { authSection, corsSection } from './modules/identity/config.js';
import { identityMigrations } from './modules/identity/migrations.js';
import { createIdentity } from './modules/identity/wiring.js';
import { userCommands } from './modules/users/cli.js';
import { userMigrations } from './modules/users/migrations.js';
import { UserRepository } from './modules/users/repository.js';
import { UserService } from './modules/users/service.js';

/** The composition root: the one place that knows every module and wires them together. */
export const configSections: ConfigSection[] = [authSection, corsSection, ingestionConfig, searchConfigSection, ...contentConfigSections];

export const migrations: MigrationSet = {
  ...projectMigrations,
  ...sourceMigrations,
  ...ingestionMigrations,
  ...indexMigrations,
  ...apiKeyMigrations,
  ...userMigrations,
  ...identityMigrations,
  ...contentMigrations,
};

export interface Quarry {
  ctx: AppContext;
  routes: RoutePlugin[];
  cli: Record<string, CliCommand>;
  /** Starts background work: the worker role always, `serve` in embedded mode. */
  startWorkers(): Promise<void>;
  services: {
    projects: ProjectService;
    sources: SourceService;
    ingestion: IngestionService;
    index: IndexService;
    apiKeys: ApiKeyService;
    users: UserService;
    content: ContentServices;
  };
}

export async function migrate(ctx: AppContext) {
  return migrateToLatest(ctx.db, migrations, ctx.config.databaseSchema);
}

export async function assemble(ctx: AppContext): Promise<Quarry> {
  const projects = new ProjectService(new ProjectRepository(ctx.db), ctx.background, ctx.database.changeToken);
  const sources = new SourceService(new SourceRepository(ctx.db), projects, ctx.background);
  const { index, routes: indexRouteList } = await createIndex(ctx, { projects, sources });
  const runRepository = new RunRepository(ctx.db);
  const ingestion = new IngestionService(runRepository, sources, projects);
  const ingestionRuntime = createIngestionRuntime(ctx, { repo: runRepository, sources, service: ingestion, index });
  const apiKeys = new ApiKeyService(new ApiKeyRepository(ctx.db), ctx.database.changeToken);
  const users = new UserService(new UserRepository(ctx.db), ctx.jwt);

  ctx.credentials.register(apiKeys.verifier());
  ctx.credentials.register(users.verifier());
  const identity = createIdentity(ctx, users);
  const content = await createContentSurface(ctx, { apiKeys, ingestion });

  return {
    ctx,
    routes: [...identity.routes, projectRoutes(projects), sourceRoutes(sources), ingestionRoutes(ingestion), indexRouteList, adminUiRoutes(ctx.config), ...content.routes],
    cli: { ...apiKeyCommands(apiKeys), ...userCommands(users) },
    async startWorkers() {
      projects.sweep();
      identity.startWorkers();
      sources.sweep();
      index.sweep();
      await ingestionRuntime.start();
      await content.startWorkers();
    },
    services: { projects, sources, ingestion, index, apiKeys, users, content: content.services },
  };
}

export async function buildServer(quarry: Quarry): Promise<App> {
  return createHttpServer(quarry.ctx, quarry.routes);
}
