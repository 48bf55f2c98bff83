import { parseArgs } from 'node:util';
import { assemble, buildServer, configSections, migrate } from './app.js';
import { ConfigError, loadConfig } from './kernel/config/load.js';
import { createContext, type Role } from './kernel/context.js';
import { AppError } from './kernel/errors/app-error.js';

const USAGE = `Usage: quarry <command>

  serve                         Run the HTTP server (and, embedded, the workers)
  worker                        Run background workers only (ingestion runs; shares work through
                                the database, and through Redis when REDIS_URL is set)
  migrate                       Apply database migrations
  keys create --name N [--admin] [--permissions '<JSON>']
                                Create an API key; prints the key as the only line on stdout
  keys list                     List API keys
  keys revoke ID                Revoke an API key
  users create --email E --name N --password P [--role R]
                                Create a user

Settings come from environment variables and quarry.config.json (see README).`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      admin: { type: 'boolean' },
      name: { type: 'string' },
      permissions: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
    },
  });
  const [command = 'serve', sub, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const role: Role = command === 'serve' ? 'serve' : command === 'worker' ? 'worker' : 'cli';
  const config = loadConfig(configSections);
  const ctx = await createContext(config, role);
  const applied = await migrate(ctx);
  if (applied.length && role !== 'cli') ctx.log.info({ migrations: applied }, 'applied migrations');
  const quarry = await assemble(ctx);

  if (command === 'migrate') {
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date\n');
    await ctx.close();
    return 0;
  }
  if (role === 'cli') {
    const run = quarry.cli[`${command} ${sub ?? ''}`.trim()];
    if (!run) {
      process.stderr.write(`Unknown command: quarry ${[command, sub].filter(Boolean).join(' ')}\n\n${USAGE}\n`);
      await ctx.close();
      return 2;
    }
    try {
      return await run(ctx, { positionals: rest, flags: values as Record<string, string | boolean> });
    } finally {
      await ctx.close();
    }
  }

  const app = role === 'serve' ? await buildServer(quarry) : undefined;
  await quarry.startWorkers();
  if (app) await app.listen({ port: config.server.port, host: config.server.host });
  else ctx.log.info('worker started');

  const stop = async (signal: string) => {
    ctx.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    await app?.close();
    await ctx.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return -1; // keep running
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof ConfigError) process.stderr.write(`quarry: ${err.message}\n`);
    else if (err instanceof AppError)
      process.stderr.write(`quarry: ${err.code}: ${err.message}${err.details ? `\n${err.details.map((d) => `  - ${d.field} ${d.message}`).join('\n')}` : ''}\n`);
    else process.stderr.write(`quarry: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
