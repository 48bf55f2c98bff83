import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import type { TSchema } from 'typebox';
import { CoreConfigSchema, coreEnv, type CoreConfig, type EnvBinding } from './core-schema.js';

/** A module's own settings: validated under `key` of the same file and environment. */
export interface ConfigSection {
  key: string;
  schema: TSchema;
  env?: Record<string, EnvBinding>;
}

export type Config = CoreConfig & Record<string, unknown>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? deepMerge(b as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

function parseEnvValue(name: string, raw: string, binding: EnvBinding): unknown {
  switch (binding.type) {
    case 'string':
      return raw;
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new ConfigError(`${name} must be a number, got "${raw}"`);
      return n;
    }
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      throw new ConfigError(`${name} must be true or false, got "${raw}"`);
    case 'list':
      return raw.split(',').map((s) => s.trim()).filter(Boolean);
    case 'json':
      try {
        return JSON.parse(raw);
      } catch {
        return raw; // plain strings are allowed where a setting takes a string or JSON
      }
  }
}

function fromEnv(env: NodeJS.ProcessEnv, bindings: Record<string, EnvBinding>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, binding] of Object.entries(bindings)) {
    let raw = env[name];
    const fileVar = env[`${name}_FILE`];
    if (raw === undefined && fileVar) {
      try {
        raw = readFileSync(fileVar, 'utf8').trim();
      } catch (err) {
        throw new ConfigError(`${name}_FILE points at ${fileVar}, which cannot be read: ${(err as Error).message}`);
      }
    }
    if (raw !== undefined && raw !== '') setPath(out, binding.path, parseEnvValue(name, raw, binding));
  }
  return out;
}

function describe(error: ErrorObject, envNames: Map<string, string>): string {
  let path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') path = [path, error.params.missingProperty].filter(Boolean).join('.');
  if (error.keyword === 'additionalProperties') {
    path = [path, error.params.additionalProperty].filter(Boolean).join('.');
    return `setting "${path}" is unknown`;
  }
  const env = envNames.get(path);
  return `setting "${path}"${env ? ` (${env})` : ''} ${error.message ?? 'is invalid'}`;
}

/**
 * Defaults < JSON file (`QUARRY_CONFIG`, default ./quarry.config.json) < environment < overrides.
 * Throws a ConfigError naming each bad setting.
 */
export function loadConfig(
  sections: ConfigSection[] = [],
  options: { env?: NodeJS.ProcessEnv; overrides?: Record<string, unknown>; file?: string | false } = {},
): Config {
  const env = options.env ?? process.env;
  const filePath = options.file === false ? undefined : resolve(options.file ?? env.QUARRY_CONFIG ?? './quarry.config.json');
  let fromFile: Record<string, unknown> = {};
  if (filePath && existsSync(filePath)) {
    try {
      fromFile = JSON.parse(readFileSync(filePath, 'utf8'));
    } catch (err) {
      throw new ConfigError(`configuration file ${filePath} is not valid JSON: ${(err as Error).message}`);
    }
  } else if (options.file === undefined && env.QUARRY_CONFIG) {
    throw new ConfigError(`QUARRY_CONFIG points at ${filePath}, which does not exist`);
  }
  const bindings: Record<string, EnvBinding> = { ...coreEnv };
  for (const section of sections) Object.assign(bindings, section.env ?? {});
  let merged = deepMerge(fromFile, fromEnv(env, bindings));
  if (options.overrides) merged = deepMerge(merged, options.overrides);

  const ajv = new Ajv({ useDefaults: true, allErrors: true, strict: false });
  const envNames = new Map(Object.entries(bindings).map(([name, b]) => [b.path, name]));
  const problems: string[] = [];
  const check = (schema: TSchema, value: unknown, prefix: string) => {
    const validate = ajv.compile(schema);
    if (!validate(value))
      for (const e of validate.errors ?? [])
        problems.push(describe({ ...e, instancePath: prefix + e.instancePath }, envNames));
  };
  check(CoreConfigSchema, merged, '');
  for (const section of sections) {
    merged[section.key] ??= {};
    check(section.schema, merged[section.key], `/${section.key}`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return merged as Config;
}

/** Names of settings holding secrets, so logs and answers can redact them. */
export const secretEnvNames = (sections: ConfigSection[] = []) =>
  Object.entries({ ...coreEnv, ...Object.assign({}, ...sections.map((s) => s.env ?? {})) })
    .filter(([, b]) => (b as EnvBinding).secret)
    .map(([name]) => name);
