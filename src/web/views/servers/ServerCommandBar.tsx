// The server page's command line: an admin command to this server through `server.runCommand`
// (confirmation for destructive ones included), ↑/↓ through this server's own history, and the
// server's answer below, every line of it.

import { type KeyboardEvent, useId, useState } from 'react';
import type { CommandResult } from '../../../../commands/context.ts';
import { useCommandRuntime } from '../../app/runtime.ts';
import { commandHistory } from '../../store/commandHistory.ts';

export function ServerCommandBar({ serviceId, label }: { serviceId: string; label: string }) {
  const runtime = useCommandRuntime();
  const id = useId();
  const [text, setText] = useState('');
  const [step, setStep] = useState(-1);
  const [result, setResult] = useState<CommandResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const cmd = runtime.registry.get('server.runCommand');
    if (!cmd || busy) return;
    setBusy(true);
    setError(null);
    try {
      const r = await runtime.run(
        cmd,
        { targets: [{ kind: 'server', id: serviceId, label }], command: text },
        'toolbar',
        { shownHere: true },
      );
      setResult(r ?? null);
      setText('');
      setStep(-1);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    const history = commandHistory(serviceId);
    const next = Math.max(-1, Math.min(history.length - 1, step + (e.key === 'ArrowUp' ? 1 : -1)));
    setStep(next);
    setText(next < 0 ? '' : history[next]);
  };

  return (
    <form
      className="server-command"
      aria-label={`Run a command on ${label}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <label htmlFor={id}>Command</label>
      <input
        id={id}
        type="text"
        value={text}
        autoComplete="off"
        placeholder="listplayers"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="ui-button" disabled={busy}>
        Run
      </button>
      {error && (
        <p role="alert" className="settings-error">
          {error}
        </p>
      )}
      {(result?.message || result?.sections) && (
        <output className="server-command-result" aria-label="Command result">
          {result.message && <span>{result.message}</span>}
          {result.sections?.map((s) => (
            <section key={s.heading} aria-label={s.heading}>
              {s.failed && <span className="settings-error">{s.heading}</span>}
              <pre className="server-command-answer">{s.text}</pre>
            </section>
          ))}
        </output>
      )}
    </form>
  );
}
