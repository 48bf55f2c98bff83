// npm run docs — regenerates the settings and error-code tables in README.md from the code, so the
// README cannot drift: test/readme.test.ts fails when these tables are out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import type { TSchema } from 'typebox';
import { configSections } from '../src/app.js';
import { CoreConfigSchema, coreEnv, type EnvBinding } from '../src/kernel/config/core-schema.js';
import { errorCatalog } from '../src/kernel/errors/codes.js';

interface Row {
  path: string;
  env: string;
  type: string;
  default: string;
  description: string;
}

function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => `\`${v}\``).join(' \\| ');
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Record<string, unknown>[]).map(typeOf).join(' \\| ');
  if (schema.const !== undefined) return `\`${schema.const}\``;
  if (schema.type === 'array') return `${typeOf((schema.items as Record<string, unknown>) ?? {})}[]`;
  return String(schema.type ?? 'any');
}

function walk(schema: Record<string, unknown>, prefix: string, envByPath: Map<string, string>, rows: Row[]) {
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (props && (schema.type === 'object' || !schema.type)) {
    for (const [key, child] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const childProps = child.properties as Record<string, unknown> | undefined;
      if (childProps && Object.keys(childProps).length) walk(child, path, envByPath, rows);
      else
        rows.push({
          path,
          env: envByPath.get(path) ?? '',
          type: typeOf(child),
          default: child.default === undefined ? '' : `\`${JSON.stringify(child.default)}\``,
          description: String(child.description ?? '').replaceAll('\n', ' ').replaceAll('|', '\\|'),
        });
    }
  }
}

export function settingsTable(): string {
  const bindings: Record<string, EnvBinding> = { ...coreEnv };
  for (const s of configSections) Object.assign(bindings, s.env ?? {});
  const envByPath = new Map(Object.entries(bindings).map(([name, b]) => [b.path, name]));
  const rows: Row[] = [];
  walk(CoreConfigSchema as unknown as Record<string, unknown>, '', envByPath, rows);
  for (const section of configSections) walk(section.schema as TSchema as unknown as Record<string, unknown>, section.key, envByPath, rows);
  const covered = new Set(rows.map((r) => r.path));
  for (const [name, b] of Object.entries(bindings))
    if (!covered.has(b.path)) rows.push({ path: b.path, env: name, type: b.type, default: '', description: '' });
  const lines = rows.map((r) => `| \`${r.path}\` | ${r.env ? `\`${r.env}\`` : ''} | ${r.type} | ${r.default} | ${r.description} |`);
  return ['| setting (JSON file path) | environment variable | type | default | notes |', '| --- | --- | --- | --- | --- |', ...lines].join('\n');
}

export function errorTable(): string {
  const lines = Object.entries(errorCatalog).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.message} |`);
  return ['| code | HTTP status | meaning |', '| --- | --- | --- |', ...lines].join('\n');
}

export function render(readme: string): string {
  const replace = (text: string, name: string, body: string) =>
    text.replace(new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`), `$1\n${body}\n$2`);
  return replace(replace(readme, 'settings', settingsTable()), 'errors', errorTable());
}

if (process.argv[1]?.endsWith('docs.ts')) {
  const current = readFileSync('README.md', 'utf8');
  writeFileSync('README.md', render(current));
  process.stdout.write('README.md tables regenerated\n');
}
