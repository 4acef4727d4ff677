// Request bodies: JSON for CRUD (else 400 badContentType, §2.1), JSON or form for OAuth and
// channel auth, optionally gzip-compressed. Every body is held to the limits of
// src/domain/limits.ts before anything else reads it: its size as sent and once inflated (413), its
// nesting (checked on the text, before JSON.parse and everything recursive after it), and every
// key and string in it (control characters, unpaired surrogates, lengths).

import { createGunzip } from 'node:zlib';
import {
  BODY_BYTES_MAX,
  type InputRules,
  inputProblem,
  JSON_DEPTH_MAX,
  nestsDeeperThan,
  TEXT_MAX,
  textProblem,
} from '../../domain/limits.ts';
import type { Problem } from '../../domain/validate.ts';
import { noteBody } from '../activity/trail.ts';
import { ApiException, badRequest, rejected } from './errors.ts';
import type { Ctx } from './router.ts';

const tooLarge = () =>
  new ApiException(
    413,
    `The request body is larger than ${BODY_BYTES_MAX / 1024 / 1024} MiB (${BODY_BYTES_MAX} bytes), as sent or once decompressed.`,
    'payloadTooLarge',
    { maxBytes: BODY_BYTES_MAX },
  );

/** The body as sent, refused as soon as it passes the limit rather than once it is all here. */
async function sentBytes(c: Ctx): Promise<Buffer> {
  if (Number(c.req.header('content-length') ?? 0) > BODY_BYTES_MAX) throw tooLarge();
  const body = c.req.raw.body;
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > BODY_BYTES_MAX) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(r.value);
  }
  return Buffer.concat(chunks);
}

/**
 * Inflated a chunk at a time on zlib's threads, stopped at the limit: a 1 MB gzip bomb that would
 * inflate to 1 GB costs 4 MiB of inflating, and the event loop nothing.
 */
function inflated(gzipped: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    gunzip.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_BYTES_MAX) {
        gunzip.destroy();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    gunzip.on('error', () =>
      reject(badRequest('badRequestBody', 'The request body could not be decompressed.')),
    );
    gunzip.on('end', () => resolve(Buffer.concat(chunks)));
    gunzip.end(gzipped);
  });
}

/** The body as text, decompressed when sent with gzip, at most BODY_BYTES_MAX bytes either way. */
export async function readText(c: Ctx): Promise<string> {
  const buf = await sentBytes(c);
  if ((c.req.header('content-encoding') ?? '').toLowerCase() !== 'gzip') return buf.toString('utf8');
  return (await inflated(buf)).toString('utf8');
}

const isJson = (c: Ctx) => /^application\/json\b/i.test(c.req.header('content-type') ?? '');

/** What API bodies may hold: no control character but tab and line breaks, lengths by field. */
const BODY_RULES: InputRules = { characters: 'noControls', lengths: true };

/** JSON text that passed the limits, parsed; the same check serves the game-server link. */
export function parseLimitedJson(text: string, rules: InputRules): { value: unknown } | Problem {
  if (nestsDeeperThan(text, JSON_DEPTH_MAX))
    return { code: 'tooDeep', message: `The body nests deeper than ${JSON_DEPTH_MAX} levels.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { code: 'badRequestBody', message: 'The request body is not valid JSON.' };
  }
  return inputProblem(value, rules) ?? { value };
}

/** JSON text held to the API's limits; a 400 naming the problem otherwise. */
export function parseJson(text: string): unknown {
  const parsed = parseLimitedJson(text, BODY_RULES);
  if ('code' in parsed) throw rejected(parsed);
  return parsed.value;
}

export async function readJson(c: Ctx): Promise<unknown> {
  if (!isJson(c)) throw badRequest('badContentType', 'Send the body as application/json.');
  const body = parseJson(await readText(c));
  noteBody(body);
  return body;
}

function objectBody(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badRequest('badRequestBody', 'The request body must be an object.');
  return v as Record<string, unknown>;
}

/** A JSON body that must be one object (the trail keeps it, as readJson's). */
export const readObject = async (c: Ctx): Promise<Record<string, unknown>> => objectBody(await readJson(c));

/** A flat set of fields from a JSON object or a form-encoded body. */
export async function readFields(c: Ctx): Promise<Record<string, unknown>> {
  const text = await readText(c);
  if (isJson(c)) return objectBody(parseJson(text));
  const fields = Object.fromEntries(new URLSearchParams(text));
  for (const [k, v] of Object.entries(fields)) {
    const p =
      textProblem(k, 'A field name', 'noControls', TEXT_MAX) ?? textProblem(v, k, 'noControls', TEXT_MAX);
    if (p) throw rejected(p);
  }
  return fields;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
