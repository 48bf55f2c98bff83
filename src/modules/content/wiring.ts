import type { ConfigSection } from '../../kernel/config/load.js';
import type { AppContext } from '../../kernel/context.js';
import type { MigrationSet } from '../../kernel/db/migrate.js';
import type { RoutePlugin } from '../../kernel/http/server.js';
import type { ApiKeyService } from '../api-keys/service.js';
import { apiKeyAdminRoutes } from '../api-keys/routes.js';
import type { IngestionService } from '../ingestion/service.js';
import { createStorage, storageConfigSection, type StorageConfig } from '../../kernel/storage/index.js';
import { fileMigrations } from '../files/migrations.js';
import { FileRepository } from '../files/repository.js';
import { fileRoutes } from '../files/routes.js';
import { FileService, uploadsConfigSection, type UploadsConfig } from '../files/service.js';
import { graphqlConfigSection, graphqlRoutes, type GraphqlConfig } from '../graphql/plugin.js';
import { webhookMigrations } from '../webhooks/migrations.js';
import { WebhookRepository } from '../webhooks/repository.js';
import { webhookAdminRoutes } from '../webhooks/routes.js';
import { WebhookService, webhooksConfigSection, type WebhooksConfig } from '../webhooks/service.js';
import { WebhookWorker } from '../webhooks/worker.js';
import { modelsConfigSection, resolveModels, type ModelsConfig } from './models.js';
import { ContentPolicy } from './policy.js';
import { ContentRepository } from './repository.js';
import { contentRoutes } from './routes.js';
import { ContentService } from './service.js';

/** The headless-CMS surface (models, admin keys, files, GraphQL, webhooks), wired as one unit for src/app.ts. */
export const contentConfigSections: ConfigSection[] = [modelsConfigSection, uploadsConfigSection, storageConfigSection, graphqlConfigSection, webhooksConfigSection];
export const contentMigrations: MigrationSet = { ...fileMigrations, ...webhookMigrations };

export interface ContentServices {
  content: ContentService;
  files: FileService;
  webhooks: WebhookService;
  webhookWorker: WebhookWorker;
}

/** Resources an API key's permission document may name besides the content models. */
const OTHER_RESOURCES = ['files', 'projects', 'sources', 'ingestion'];

export async function createContentSurface(ctx: AppContext, deps: { apiKeys: ApiKeyService; ingestion: IngestionService }) {
  const models = resolveModels(ctx.config.models as ModelsConfig | undefined);
  const repo = new ContentRepository(ctx.db, ctx.config.databaseSchema);
  await repo.sync(models);
  const policy = new ContentPolicy();
  const content = new ContentService(repo, policy, models, ctx.database.changeToken);

  const storage = createStorage(ctx.config.storage as StorageConfig | undefined, ctx.config.dataDir);
  ctx.onClose(() => storage.close?.());
  const publicUrl = (ctx.config.server.publicUrl ?? '').replace(/\/+$/, '');
  const files = new FileService(new FileRepository(ctx.db), storage, policy, ctx.config.uploads as UploadsConfig, ctx.background, publicUrl);

  const webhookRepo = new WebhookRepository(ctx.db);
  const webhooks = new WebhookService(webhookRepo, ctx.config.webhooks as WebhooksConfig, models.map((m) => m.name));
  const webhookSettings = ctx.config.webhooks as WebhooksConfig;
  const webhookWorker = new WebhookWorker(webhookRepo, webhooks, ctx.log, webhookSettings.allowPrivateTargets ?? ctx.config.env !== 'production');
  ctx.onClose(() => webhookWorker.stop());
  content.onChange(async (trx, change) => {
    if (await webhooks.enqueue(trx, `content.${change.action}`, change.model, change.record)) setImmediate(() => webhookWorker.kick());
  });
  deps.ingestion.onRunFinished(async (run) => {
    if (await webhooks.enqueue(ctx.db, `ingestion.${run.status}`, null, run)) webhookWorker.kick();
  });

  const known = new Set([...models.map((m) => m.name), ...OTHER_RESOURCES]);
  deps.apiKeys.checkPermissions = (doc) => checkKnownModels(doc.models, known);

  const routes: RoutePlugin[] = [apiKeyAdminRoutes(deps.apiKeys), fileRoutes(files), contentRoutes(content), graphqlRoutes(content, files, ctx.config.graphql as GraphqlConfig), webhookAdminRoutes(webhooks, () => webhookWorker.kick())];
  return {
    routes,
    services: { content, files, webhooks, webhookWorker } satisfies ContentServices,
    async startWorkers() {
      webhookWorker.start();
    },
  };
}

import { AppError } from '../../kernel/errors/app-error.js';

function checkKnownModels(models: Record<string, unknown>, known: Set<string>) {
  const unknown = Object.keys(models).filter((m) => !known.has(m));
  if (unknown.length)
    throw new AppError('validation_failed', `permissions.models names unknown resources: ${unknown.join(', ')}`, {
      details: unknown.map((m) => ({ field: `permissions.models.${m}`, message: `is not a model; known: ${[...known].join(', ')}` })),
    });
}
