// The File importer's failures (SPEC §2 "File importer", §5 "Importer", §8): each a code the
// console reacts to and the words users see.

export const ImportErrorCode = {
  badUrl: 'badUrl',
  textConversionFailed: 'textConversionFailed',
  http: 'http',
  failedRead: 'failedRead',
  noFile: 'noFile',
  empty: 'empty',
} as const;
export type ImportErrorCode = keyof typeof ImportErrorCode;

export const ImportMsg = {
  badUrl: 'That link is not a web address (http:// or https://).',
  textConversionFailed: 'The content is not readable as text.',
  http: (status: number, statusText: string) =>
    `The link could not be downloaded: ${status} ${statusText}`.trim(),
  failedRead: 'The file could not be read.',
  noFile: 'Choose a file first.',
  empty: 'The content is empty.',
} as const;

export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

/** Text from raw bytes, refusing what is not UTF-8 text (a zip, an image). */
export function bytesToText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportError('textConversionFailed', ImportMsg.textConversionFailed);
  }
  // NUL and other C0 controls (besides tab and line breaks) mark binary content.
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text))
    throw new ImportError('textConversionFailed', ImportMsg.textConversionFailed);
  if (text.trim() === '') throw new ImportError('empty', ImportMsg.empty);
  return text;
}

/** Downloads a link's content as text, with the importer's errors. */
export async function readLink(url: string, fetcher: typeof fetch = fetch): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new ImportError('badUrl', ImportMsg.badUrl);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ImportError('badUrl', ImportMsg.badUrl);
  const res = await fetcher(parsed.toString());
  if (!res.ok) throw new ImportError('http', ImportMsg.http(res.status, res.statusText));
  return bytesToText(new Uint8Array(await res.arrayBuffer()));
}
