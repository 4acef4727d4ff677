// Request bodies: JSON for CRUD (else 400 badContentType, §2.1), JSON or form for OAuth and
// channel auth, optionally gzip-compressed.

import { gunzipSync } from 'node:zlib';
import { badRequest } from './errors.ts';
import type { Ctx } from './router.ts';

async function rawText(c: Ctx): Promise<string> {
  const buf = Buffer.from(await c.req.arrayBuffer());
  if ((c.req.header('content-encoding') ?? '').toLowerCase() !== 'gzip') return buf.toString('utf8');
  try {
    return gunzipSync(buf).toString('utf8');
  } catch {
    throw badRequest('badRequestBody', 'The request body could not be decompressed.');
  }
}

const isJson = (c: Ctx) => /^application\/json\b/i.test(c.req.header('content-type') ?? '');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('badRequestBody', 'The request body is not valid JSON.');
  }
}

export async function readJson(c: Ctx): Promise<unknown> {
  if (!isJson(c)) throw badRequest('badContentType', 'Send the body as application/json.');
  return parseJson(await rawText(c));
}

/** A flat set of fields from a JSON object or a form-encoded body. */
export async function readFields(c: Ctx): Promise<Record<string, unknown>> {
  const text = await rawText(c);
  if (isJson(c)) {
    const v = parseJson(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw badRequest('badRequestBody', 'The request body must be an object.');
    return v as Record<string, unknown>;
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
