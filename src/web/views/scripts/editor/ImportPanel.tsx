// Importing a script from a file (Upload File, From Link, Copy & Paste): script.import runs it;
// when the name is taken it asks, and Keep both or Replace runs it again with the answer.

import { useState } from 'react';
import { CommandError } from '../../../../../commands/registry.ts';
import type { IMPORT_CHOICES } from '../../../../../commands/scriptEditing.ts';
import { FileImporter, type ImportSource } from '../../../ui/FileImporter.tsx';

export type ImportChoice = (typeof IMPORT_CHOICES)[number];

export interface ImportPanelProps {
  /** Runs script.import; resolves to its message. */
  run(source: string, onDuplicate: ImportChoice): Promise<string>;
}

export function ImportPanel({ run }: ImportPanelProps) {
  const [pending, setPending] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean } | null>(null);
  const attempt = async (source: string, choice: ImportChoice): Promise<string> => {
    try {
      const message = await run(source, choice);
      setPending(null);
      return message;
    } catch (e) {
      if (e instanceof CommandError && e.field === 'onDuplicate') {
        setPending(source);
        return e.message;
      }
      throw e;
    }
  };
  const answer = async (choice: ImportChoice) => {
    if (pending === null) return;
    try {
      setOutcome({ text: await attempt(pending, choice), failed: false });
    } catch (e) {
      setOutcome({ text: (e as Error).message, failed: true });
    }
  };
  return (
    <section className="se-import" aria-label="Import script">
      <h2>Import script</h2>
      <FileImporter
        onImport={(s: ImportSource) => attempt('url' in s ? s.url : s.text, 'ask')}
        accept=".json,application/json"
        placeholder="The exported script file"
      />
      {pending !== null && (
        <fieldset className="se-duplicate">
          <legend>The name is taken</legend>
          <button type="button" className="ui-button" onClick={() => void answer('keepBoth')}>
            Keep both
          </button>
          <button type="button" className="ui-button" onClick={() => void answer('replace')}>
            Replace
          </button>
        </fieldset>
      )}
      {outcome && (
        <p role={outcome.failed ? 'alert' : 'status'} className={outcome.failed ? 'se-error' : undefined}>
          {outcome.text}
        </p>
      )}
    </section>
  );
}
