import { readJson, typed, writeJson, type AnyDb } from '../../kernel/db/dialect.js';

export interface StoredThumbnail {
  name: string;
  key: string;
  width: number;
  height: number;
}

export interface StoredFile {
  id: string;
  filename: string;
  storageKey: string;
  mimeType: string;
  size: number;
  alt: string | null;
  folder: string;
  width: number | null;
  height: number | null;
  thumbnails: StoredThumbnail[];
  createdAt: string;
  createdBy: string | null;
}

interface FileRow {
  id: string;
  filename: string;
  storage_key: string;
  mime_type: string;
  size: number;
  alt: string | null;
  folder: string;
  width: number | null;
  height: number | null;
  thumbnails: unknown;
  created_at: string;
  created_by: string | null;
}

const toFile = (r: FileRow): StoredFile => ({
  id: r.id,
  filename: r.filename,
  storageKey: r.storage_key,
  mimeType: r.mime_type,
  size: Number(r.size),
  alt: r.alt,
  folder: r.folder,
  width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height),
  thumbnails: readJson<StoredThumbnail[]>(r.thumbnails, []),
  createdAt: r.created_at,
  createdBy: r.created_by,
});

export class FileRepository {
  private readonly db;

  constructor(db: AnyDb) {
    this.db = typed<{ files: FileRow }>(db);
  }

  /** All or none: the rows go in one transaction. */
  async insertAll(files: StoredFile[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const f of files)
        await trx
          .insertInto('files')
          .values({
            id: f.id,
            filename: f.filename,
            storage_key: f.storageKey,
            mime_type: f.mimeType,
            size: f.size,
            alt: f.alt,
            folder: f.folder,
            width: f.width,
            height: f.height,
            thumbnails: writeJson(f.thumbnails),
            created_at: f.createdAt,
            created_by: f.createdBy,
          })
          .execute();
    });
  }

  async find(id: string): Promise<StoredFile | undefined> {
    const row = await this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toFile(row);
  }

  async findMany(ids: string[]): Promise<StoredFile[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('files').selectAll().where('id', 'in', ids).execute()).map(toFile);
  }

  async list(q: { folder?: string; limit: number; offset: number }): Promise<StoredFile[]> {
    let query = this.db.selectFrom('files').selectAll();
    if (q.folder !== undefined) query = query.where('folder', '=', q.folder);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).offset(q.offset).execute();
    return rows.map(toFile);
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
