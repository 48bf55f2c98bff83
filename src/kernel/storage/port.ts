import type { Readable } from 'node:stream';

/** Where uploaded bytes live. Keys are relative, `/`-separated, already normalised by the caller. */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** A stream of the bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
  close?(): Promise<void> | void;
}
