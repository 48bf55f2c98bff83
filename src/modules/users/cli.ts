import type { CliCommand } from '../../kernel/module.js';
import type { UserService } from './service.js';

export function userCommands(service: UserService): Record<string, CliCommand> {
  return {
    'users create': async (_ctx, { flags }) => {
      const user = await service.create({
        email: flags.email,
        name: flags.name,
        password: flags.password,
        ...(flags.role ? { role: flags.role } : {}),
      });
      process.stdout.write(`${user.id}\n`);
      process.stderr.write(`Created ${user.role} ${user.email}\n`);
      return 0;
    },
  };
}
