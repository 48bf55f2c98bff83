import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import Type, { type Static } from 'typebox';
import type { Principal } from '../../kernel/auth/principal.js';
import type { ConfigSection } from '../../kernel/config/load.js';
import { newId, nowIso } from '../../kernel/db/ids.js';
import { AppError } from '../../kernel/errors/app-error.js';
import { offsetOf, toPage } from '../../kernel/http/pagination.js';
import type { BackgroundTasks } from '../../kernel/background.js';
import type { FileStorage } from '../../kernel/storage/port.js';
import { ACCESS_ROLES } from '../content/models.js';
import type { AccessRules, ContentPolicy } from '../content/policy.js';
import type { FileRepository, StoredFile, StoredThumbnail } from './repository.js';

const RoleList = Type.Array(Type.Enum(ACCESS_ROLES), { uniqueItems: true });
export const UploadsConfigSchema = Type.Object(
  {
    maxFileBytes: Type.Integer({ minimum: 1, default: 25 * 1024 * 1024 }),
    maxFiles: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    allowedTypes: Type.Array(Type.String({ pattern: '^[a-z]+/[a-z0-9.+-]+$' }), {
      default: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'application/pdf', 'text/plain', 'text/markdown', 'text/csv'],
    }),
    access: Type.Object(
      {
        read: RoleList,
        create: RoleList,
        update: RoleList,
        delete: RoleList,
      },
      { default: { read: ['public'], create: ['editor'], update: ['editor'], delete: ['admin'] }, additionalProperties: false },
    ),
  },
  { additionalProperties: false, default: {} },
);
export type UploadsConfig = Static<typeof UploadsConfigSchema>;
export const uploadsConfigSection: ConfigSection = {
  key: 'uploads',
  schema: UploadsConfigSchema,
  env: {
    QUARRY_UPLOAD_MAX_BYTES: { path: 'uploads.maxFileBytes', type: 'number' },
    QUARRY_UPLOAD_MAX_FILES: { path: 'uploads.maxFiles', type: 'number' },
    QUARRY_UPLOAD_ALLOWED_TYPES: { path: 'uploads.allowedTypes', type: 'list' },
  },
};

const THUMBNAILS = [
  { name: 'small', size: 320 },
  { name: 'medium', size: 960 },
];
const TEXT_TYPES: Record<string, string> = { md: 'text/markdown', markdown: 'text/markdown', csv: 'text/csv' };

export interface IncomingFile {
  filename: string;
  data: Buffer;
}

export type FilePresentation = ReturnType<FileService['present']>;

const badFolder = (message: string) => new AppError('validation_failed', `folder ${message}`, { details: [{ field: 'folder', message }] });

/** `a//b/` → `a/b`; refuses absolute paths, `.`/`..` segments, backslashes and control characters. */
export function normalizeFolder(input: string | undefined): string {
  if (input === undefined || input.trim() === '') return '';
  if (/[\u0000-\u001f\u007f\\]/.test(input)) throw badFolder('may not contain control characters or backslashes');
  if (input.startsWith('/') || /^[A-Za-z]:/.test(input)) throw badFolder('must be a relative path');
  const segments = input.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) throw badFolder('may not contain "." or ".." segments');
  if (segments.some((s) => !/^[\p{L}\p{N} ._-]{1,100}$/u.test(s) || s.trim() !== s)) throw badFolder('segments hold letters, digits, space, ".", "_" or "-"');
  const folder = segments.join('/');
  if (folder.length > 300 || segments.length > 10) throw badFolder('is too deep or too long');
  return folder;
}

/** Sniffs the type from the bytes; text has no signature, so it is recognised as valid UTF-8 without NUL bytes. */
async function sniff(file: IncomingFile): Promise<{ mime: string; ext: string } | null> {
  const detected = await fileTypeFromBuffer(file.data);
  if (detected) return { mime: detected.mime, ext: detected.ext };
  if (file.data.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(file.data);
  } catch {
    return null;
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
  const mime = TEXT_TYPES[ext] ?? 'text/plain';
  return { mime, ext: mime === 'text/plain' ? 'txt' : ext === 'markdown' ? 'md' : ext };
}

const cleanName = (name: string) => name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').slice(-200) || 'file';

export class FileService {
  readonly rules: AccessRules;

  constructor(
    private readonly repo: FileRepository,
    private readonly storage: FileStorage,
    private readonly policy: ContentPolicy,
    readonly settings: UploadsConfig,
    private readonly background: BackgroundTasks,
    private readonly publicUrl = '',
  ) {
    this.rules = { name: 'files', access: settings.access, fields: [] };
  }

  present(f: StoredFile) {
    const base = `${this.publicUrl}/api/files/${f.id}`;
    return {
      id: f.id,
      filename: f.filename,
      mimeType: f.mimeType,
      size: f.size,
      url: `${base}/content`,
      alt: f.alt,
      folder: f.folder,
      width: f.width,
      height: f.height,
      thumbnails: Object.fromEntries(f.thumbnails.map((t) => [t.name, { url: `${base}/thumbnails/${t.name}`, width: t.width, height: t.height }])),
      createdAt: f.createdAt,
      createdBy: f.createdBy,
    };
  }

  assert(principal: Principal | null, action: 'read' | 'create' | 'update' | 'delete') {
    this.policy.assert(principal, this.rules, action);
  }

  private async prepare(file: IncomingFile, meta: { alt: string | null; folder: string; by: string | null }) {
    const type = await sniff(file);
    if (!type || !this.settings.allowedTypes.includes(type.mime))
      throw new AppError('file_type_not_allowed', `${file.filename}: ${type ? `${type.mime} is` : 'binary data of an unknown type is'} not accepted; allowed: ${this.settings.allowedTypes.join(', ')}`, {
        details: [{ field: 'file', message: `type ${type?.mime ?? 'unknown'} is not allowed` }],
      });
    const id = newId('fil');
    const prefix = meta.folder ? `${meta.folder}/` : '';
    const record: StoredFile = {
      id,
      filename: cleanName(file.filename),
      storageKey: `${prefix}${id}.${type.ext}`,
      mimeType: type.mime,
      size: file.data.length,
      alt: meta.alt,
      folder: meta.folder,
      width: null,
      height: null,
      thumbnails: [],
      createdAt: nowIso(),
      createdBy: meta.by,
    };
    const blobs: Array<{ key: string; data: Buffer; mime: string }> = [{ key: record.storageKey, data: file.data, mime: type.mime }];
    if (type.mime.startsWith('image/')) {
      try {
        const info = await sharp(file.data).metadata();
        record.width = info.width ?? null;
        record.height = info.height ?? null;
        for (const t of THUMBNAILS) {
          const out = await sharp(file.data).rotate().resize(t.size, t.size, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
          const thumb: StoredThumbnail = { name: t.name, key: `${prefix}${id}-${t.name}.webp`, width: out.info.width, height: out.info.height };
          record.thumbnails.push(thumb);
          blobs.push({ key: thumb.key, data: out.data, mime: 'image/webp' });
        }
      } catch {
        throw new AppError('validation_failed', `${file.filename} is not a readable ${type.mime} image`, { details: [{ field: 'file', message: 'is not a readable image' }] });
      }
    }
    return { record, blobs };
  }

  /** Validates every file first, then stores all; on any failure nothing stays stored. */
  async upload(principal: Principal | null, files: IncomingFile[], fields: { alt?: string; folder?: string }) {
    this.assert(principal, 'create');
    const folder = normalizeFolder(fields.folder);
    const alt = fields.alt?.trim() ? fields.alt.trim().slice(0, 1000) : null;
    const prepared = [];
    for (const file of files) prepared.push(await this.prepare(file, { alt, folder, by: principal?.id ?? null }));
    const written: string[] = [];
    try {
      for (const p of prepared)
        for (const blob of p.blobs) {
          await this.storage.put(blob.key, blob.data, blob.mime);
          written.push(blob.key);
        }
      await this.repo.insertAll(prepared.map((p) => p.record));
    } catch (err) {
      await Promise.allSettled(written.map((key) => this.storage.delete(key)));
      throw err;
    }
    return prepared.map((p) => this.present(p.record));
  }

  async list(principal: Principal | null, q: { folder?: string; page: number; limit: number }) {
    this.assert(principal, 'read');
    const folder = q.folder === undefined ? undefined : normalizeFolder(q.folder);
    const rows = await this.repo.list({ ...(folder !== undefined ? { folder } : {}), limit: q.limit, offset: offsetOf(q.page, q.limit) });
    return toPage(rows.map((r) => this.present(r)), q.page, q.limit);
  }

  async get(principal: Principal | null, id: string): Promise<StoredFile> {
    this.assert(principal, 'read');
    const file = await this.repo.find(id);
    if (!file) throw new AppError('file_not_found', `No file ${id}`);
    return file;
  }

  /** Batch read for GraphQL relations; nothing when the caller may not read files. */
  async getMany(principal: Principal | null, ids: string[]) {
    if (!this.policy.can(principal, this.rules, 'read')) return new Map<string, FilePresentation>();
    return new Map((await this.repo.findMany([...new Set(ids)])).map((f) => [f.id, this.present(f)]));
  }

  async open(principal: Principal | null, id: string, thumbnail?: string) {
    const file = await this.get(principal, id);
    const key = thumbnail ? file.thumbnails.find((t) => t.name === thumbnail)?.key : file.storageKey;
    const stream = key ? await this.storage.get(key) : null;
    if (!stream) throw new AppError('file_not_found', `No ${thumbnail ? `thumbnail ${thumbnail} of ` : ''}file ${id}`);
    return { file, stream, mimeType: thumbnail ? 'image/webp' : file.mimeType, public: this.policy.can(null, this.rules, 'read') };
  }

  async remove(principal: Principal | null, id: string) {
    this.assert(principal, 'delete');
    const file = await this.repo.find(id);
    if (!file || !(await this.repo.delete(id))) throw new AppError('file_not_found', `No file ${id}`);
    const keys = [file.storageKey, ...file.thumbnails.map((t) => t.key)];
    this.background.run('delete stored file', () => Promise.all(keys.map((k) => this.storage.delete(k))));
  }
}
