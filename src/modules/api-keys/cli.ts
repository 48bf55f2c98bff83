import type { CliCommand } from '../../kernel/module.js';
import type { ApiKeyService } from './service.js';

export function apiKeyCommands(service: ApiKeyService): Record<string, CliCommand> {
  return {
    'keys create': async (_ctx, { flags }) => {
      if (typeof flags.name !== 'string' || !flags.name.trim()) {
        process.stderr.write('quarry keys create: --name is required\n');
        return 2;
      }
      let permissions: unknown = {};
      if (typeof flags.permissions === 'string') {
        try {
          permissions = JSON.parse(flags.permissions);
        } catch {
          process.stderr.write('quarry keys create: --permissions must be a JSON document\n');
          return 2;
        }
      }
      if (flags.admin === true) permissions = { ...(permissions as object), admin: true };
      const created = await service.create({ name: flags.name.trim(), permissions });
      process.stderr.write(`Created API key ${created.id} (${created.name}). Store it now: it is shown only once.\n`);
      process.stdout.write(`${created.key}\n`);
      return 0;
    },
    'keys list': async () => {
      const keys = await service.list({ includeRevoked: true, limit: 1000, offset: 0 });
      for (const k of keys)
        process.stdout.write(
          `${k.id}\t${k.prefix}…\t${k.name}\t${k.permissions.admin ? 'admin' : JSON.stringify(k.permissions.models)}\t${k.revokedAt ? `revoked ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`}\n`,
        );
      return 0;
    },
    'keys revoke': async (_ctx, { positionals }) => {
      const id = positionals[0];
      if (!id) {
        process.stderr.write('quarry keys revoke: give the key id (see `quarry keys list`)\n');
        return 2;
      }
      await service.revoke(id);
      process.stderr.write(`Revoked ${id}\n`);
      return 0;
    },
  };
}
