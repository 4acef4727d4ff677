// The File importer (SPEC §2): Upload File, From Link or Copy & Paste, and drag and drop onto it.
// It turns what the user gives into text (or a link for the command to download) and shows the
// importer's errors (SPEC §8) and the outcome in place; what was typed or chosen stays put.

import { type DragEvent, useState } from 'react';
import { bytesToText, ImportError, ImportMsg } from '../../domain/importer.ts';

export type ImportSource = { text: string } | { url: string };

export interface FileImporterProps {
  /** Runs the import; resolves to the outcome to show, rejects with the reason. */
  onImport(source: ImportSource): Promise<string>;
  /** File types offered by the picker, e.g. `.txt,text/plain`. */
  accept?: string;
  placeholder?: string;
}

const METHODS = [
  { id: 'file', title: 'Upload File' },
  { id: 'link', title: 'From Link' },
  { id: 'paste', title: 'Copy & Paste' },
] as const;
type Method = (typeof METHODS)[number]['id'];

async function readFile(file: File | null | undefined): Promise<string> {
  if (!file) throw new ImportError('noFile', ImportMsg.noFile);
  let bytes: ArrayBuffer;
  try {
    bytes = await file.arrayBuffer();
  } catch {
    throw new ImportError('failedRead', ImportMsg.failedRead);
  }
  return bytesToText(new Uint8Array(bytes));
}

function linkSource(url: string): ImportSource {
  const t = url.trim();
  if (!/^https?:\/\/\S+$/i.test(t)) throw new ImportError('badUrl', ImportMsg.badUrl);
  return { url: t };
}

function pasteSource(text: string): ImportSource {
  if (text.trim() === '') throw new ImportError('empty', ImportMsg.empty);
  return { text };
}

export function FileImporter({ onImport, accept, placeholder }: FileImporterProps) {
  const [method, setMethod] = useState<Method>('paste');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  const run = async (source: () => Promise<ImportSource> | ImportSource) => {
    setError(null);
    setOutcome(null);
    setBusy(true);
    try {
      setOutcome(await onImport(await source()));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const submit = () =>
    run(async () =>
      method === 'file'
        ? { text: await readFile(file) }
        : method === 'link'
          ? linkSource(url)
          : pasteSource(pasted),
    );

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped) {
      setMethod('file');
      setFile(dropped);
      void run(async () => ({ text: await readFile(dropped) }));
      return;
    }
    const text = e.dataTransfer.getData('text/plain');
    if (/^https?:\/\//i.test(text.trim())) {
      setMethod('link');
      setUrl(text.trim());
      void run(() => linkSource(text));
    } else {
      setMethod('paste');
      setPasted(text);
      void run(() => pasteSource(text));
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is the mouse's shortcut; every method is reachable by keyboard
    <div
      className={`file-importer${dragging ? ' is-dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div role="radiogroup" aria-label="Import method" className="file-importer-methods">
        {METHODS.map((m) => (
          <label key={m.id} className="ui-check">
            <input
              type="radio"
              name="import-method"
              checked={method === m.id}
              onChange={() => setMethod(m.id)}
            />
            {m.title}
          </label>
        ))}
      </div>
      {method === 'file' && (
        <input
          type="file"
          aria-label="File to import"
          accept={accept}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      )}
      {method === 'link' && (
        <input
          type="url"
          className="ui-input"
          aria-label="Link to import"
          placeholder="https://…"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      )}
      {method === 'paste' && (
        <textarea
          className="ui-input"
          aria-label="Text to import"
          placeholder={placeholder}
          rows={6}
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void submit();
            }
          }}
        />
      )}
      <p className="file-importer-hint">Or drop a file, a link or text here.</p>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {/* A long list takes a while (a 30,000-line ban list, about 25 s): say so meanwhile. */}
      {(busy || outcome) && (
        <p role="status" className="file-importer-outcome">
          {busy ? 'Importing…' : outcome}
        </p>
      )}
      <button
        type="button"
        className="ui-button ui-button-primary"
        disabled={busy}
        onClick={() => void submit()}
      >
        Import <kbd>Ctrl Enter</kbd>
      </button>
    </div>
  );
}
