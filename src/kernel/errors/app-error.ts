import { errorCatalog, type ErrorCode } from './codes.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** An error a client can act on: it carries a stable `code` and the HTTP status that goes with it. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message ?? errorCatalog[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalog[code].status;
    if (options.details) this.details = options.details;
    if (options.headers) this.headers = options.headers;
  }
}

export const notFound = (code: ErrorCode, id: string) => new AppError(code, `${errorCatalog[code].message}: ${id}`);
