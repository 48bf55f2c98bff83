import Type, { type Static } from 'typebox';
import { join } from 'node:path';
import type { ConfigSection } from '../config/load.js';
import { ConfigError } from '../config/load.js';
import { LocalDiskStorage } from './local.js';
import type { FileStorage } from './port.js';
import { S3Storage } from './s3.js';

export type { FileStorage } from './port.js';

export const StorageConfigSchema = Type.Object(
  {
    driver: Type.Enum(['local', 's3'], { default: 'local' }),
    /** Local driver: defaults to `<dataDir>/uploads`. */
    path: Type.Optional(Type.String({ minLength: 1 })),
    s3: Type.Optional(
      Type.Object(
        {
          bucket: Type.String({ minLength: 1 }),
          region: Type.String({ default: 'us-east-1' }),
          endpoint: Type.Optional(Type.String({ pattern: '^https?://' })),
          accessKeyId: Type.Optional(Type.String()),
          secretAccessKey: Type.Optional(Type.String()),
          forcePathStyle: Type.Boolean({ default: false }),
          prefix: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, default: {} },
);
export type StorageConfig = Static<typeof StorageConfigSchema>;

export const storageConfigSection: ConfigSection = {
  key: 'storage',
  schema: StorageConfigSchema,
  env: {
    QUARRY_STORAGE_DRIVER: { path: 'storage.driver', type: 'string' },
    QUARRY_STORAGE_PATH: { path: 'storage.path', type: 'string' },
    QUARRY_S3_BUCKET: { path: 'storage.s3.bucket', type: 'string' },
    QUARRY_S3_REGION: { path: 'storage.s3.region', type: 'string' },
    QUARRY_S3_ENDPOINT: { path: 'storage.s3.endpoint', type: 'string' },
    QUARRY_S3_ACCESS_KEY_ID: { path: 'storage.s3.accessKeyId', type: 'string' },
    QUARRY_S3_SECRET_ACCESS_KEY: { path: 'storage.s3.secretAccessKey', type: 'string', secret: true },
    QUARRY_S3_FORCE_PATH_STYLE: { path: 'storage.s3.forcePathStyle', type: 'boolean' },
    QUARRY_S3_PREFIX: { path: 'storage.s3.prefix', type: 'string' },
  },
};

export function createStorage(config: StorageConfig | undefined, dataDir: string): FileStorage {
  if (config?.driver === 's3') {
    if (!config.s3) throw new ConfigError('storage.s3 (QUARRY_S3_BUCKET, …) is required when storage.driver is "s3"');
    return new S3Storage(config.s3);
  }
  return new LocalDiskStorage(config?.path ?? join(dataDir, 'uploads'));
}
