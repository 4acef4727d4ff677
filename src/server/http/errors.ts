// API failures as values: a route throws ApiException and the error handler writes the body of
// SENTINEL-API §2.1 (`{"type":"beacon.error","code","message","details"}`).

import { Msg } from '../../domain/messages.ts';
import type { Problem } from '../../domain/validate.ts';

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

/** A value as a message may quote it: text as is, anything else as JSON (String() of `{ toString: '' }` throws). */
export const quoted = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));

export const objectNotFound = (details: unknown = null) =>
  new ApiException(404, 'Not found', 'objectNotFound', details);
export const forbidden = (details: unknown = null) =>
  new ApiException(403, 'Forbidden', 'forbidden', details);
export const badRequest = (code: string, message: string, details: unknown = null) =>
  new ApiException(400, message, code, details);
export const validation = (message: string, details: unknown = null) =>
  new ApiException(400, message, 'validation', details);
/** A validator's problem as the 400 the API answers, naming the field. */
export const rejected = (p: Problem): ApiException =>
  badRequest(p.code, p.message, p.field === undefined ? null : { field: p.field });
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
    // Data the request layer should have refused already (src/domain/limits.ts); a 400 if one slips by.
    case '22003':
    case '22008':
      return badRequest('outOfRange', 'A value is out of range.', detail);
    case '22021':
    case '22P05':
      return badRequest('badCharacter', 'A text holds a character the database cannot store.', detail);
    default:
      return null;
  }
}
