// API failures as values: a route throws ApiException and the error handler writes the body of
// SENTINEL-API §2.1 (`{"type":"beacon.error","code","message","details"}`).

import { Msg } from '../../domain/messages.ts';

export class ApiException extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details: unknown = null,
    readonly headers: Record<string, string> = {},
    /** Fields a standard adds to the error body (RFC 6749 §5.2 `error`, `error_description`). */
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiException';
  }
}

export const objectNotFound = (details: unknown = null) =>
  new ApiException(404, 'Not found', 'objectNotFound', details);
export const forbidden = (details: unknown = null) =>
  new ApiException(403, 'Forbidden', 'forbidden', details);
export const badRequest = (code: string, message: string, details: unknown = null) =>
  new ApiException(400, message, code, details);
export const validation = (message: string, details: unknown = null) =>
  new ApiException(400, message, 'validation', details);
export const serviceNotConnected = (serviceId: string) =>
  new ApiException(412, Msg.serviceNotConnected, 'serviceNotConnected', { serviceId });

/** PostgreSQL constraint failures, as §2.2 names them. */
export function fromDatabaseError(e: unknown): ApiException | null {
  const code = (e as { code?: unknown }).code;
  const detail = (e as { detail?: unknown }).detail ?? null;
  switch (code) {
    case '23505':
      return badRequest('duplicate', 'An object with these values already exists.', detail);
    case '23503':
      return badRequest('notFound', 'A referenced object does not exist.', detail);
    case '23502':
      return badRequest('nullValue', 'A required value is missing.', detail);
    case '23514':
      return badRequest('validation', 'A value is not allowed.', detail);
    case '22P02':
      return badRequest('validation', 'A value is not in the right format.', detail);
    default:
      return null;
  }
}
