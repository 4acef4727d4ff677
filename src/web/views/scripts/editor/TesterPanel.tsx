// The script tester (SPEC §2 "Script tester", §4 "Script test"): parameter values and a sample
// event, then the run's outcome (success, failure, timeout after 60 s, requires review) with its
// output (shown as it comes) and the actions it would take, as soon as the realtime channel says
// the test ended. It tests the draft as it stands, saved or not; nothing is done on any server.

import { type FormEvent, useState } from 'react';
import { runScriptTest, TEST_STATUS_LABEL, type TestReport } from '../../../../../commands/scriptEditing.ts';
import { formatCount } from '../../../../domain/format.ts';
import type { ScriptDocument } from '../../../../domain/scripts/content.ts';
import { FIELDS } from '../../../../domain/scripts/fields.ts';
import { SCRIPT_LIMITS } from '../../../../domain/scripts/limits.ts';
import { actionLabel, optionsSummary } from '../../../../domain/scripts/simpleText.ts';
import { errorText } from '../../../api/http.ts';
import { useCommandRuntime } from '../../../app/runtime.ts';
import { Field, TypedInput, type Value } from './fields.tsx';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; output: string[] }
  | { kind: 'done'; report: TestReport }
  | { kind: 'error'; text: string };

const hasMessage = (context: string) => FIELDS.message.contexts.includes(context as never);

export function TesterPanel({
  doc,
  event,
  onEvent,
}: {
  doc: ScriptDocument;
  event: number;
  onEvent(i: number): void;
}) {
  const rt = useCommandRuntime();
  const [values, setValues] = useState<Record<string, Value>>({});
  const [message, setMessage] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const e = doc.events[event];

  const run = async (ev: FormEvent) => {
    ev.preventDefault();
    if (state.kind === 'running' || !e) return;
    setState({ kind: 'running', output: [] });
    const parameters = Object.fromEntries(
      doc.parameters
        .map((p) => [p.name, values[p.name] ?? p.default])
        .filter(([, v]) => v !== null && v !== undefined),
    );
    try {
      // The command's own run (script.test), its report shown here rather than as a toast.
      const report = await runScriptTest(
        rt.context('form'),
        { content: doc, event, parameters, message: hasMessage(e.context) ? message : undefined },
        (lines) =>
          setState((s) => (s.kind === 'running' ? { kind: 'running', output: [...s.output, ...lines] } : s)),
      );
      setState({ kind: 'done', report });
    } catch (err) {
      setState({ kind: 'error', text: errorText(err) });
    }
  };

  return (
    <section className="se-tester" aria-label="Tester">
      <h3>Tester</h3>
      <form onSubmit={run}>
        <Field label="Event to test">
          {(id) => (
            <select id={id} value={event} onChange={(x) => onEvent(Number(x.target.value))}>
              {doc.events.map((x, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an event is known by its place in the script.
                <option key={`${i}-${x.context}`} value={i}>
                  {i + 1}. {x.context} ({x.language})
                </option>
              ))}
            </select>
          )}
        </Field>
        {doc.parameters.map((p) => (
          <Field key={p.name} label={`Parameter ${p.name}`}>
            {(id) => (
              <TypedInput
                id={id}
                type={p.type}
                value={values[p.name] ?? p.default}
                onChange={(v) => setValues((s) => ({ ...s, [p.name]: v }))}
              />
            )}
          </Field>
        ))}
        {e && hasMessage(e.context) && (
          <Field
            label="Sample chat line"
            help="The message of the made-up event; blank: Hello from the tester"
          >
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                value={message}
                onChange={(x) => setMessage(x.target.value)}
              />
            )}
          </Field>
        )}
        <button type="submit" className="ui-button" aria-disabled={state.kind === 'running' || undefined}>
          Run test
        </button>
      </form>
      <div className="se-test-result" aria-live="polite">
        {state.kind === 'running' && (
          <>
            <p>Running… (up to {SCRIPT_LIMITS.testTimeoutMs / 1000} seconds)</p>
            {state.output.length > 0 && (
              <>
                <h4>Output so far</h4>
                <pre className="se-output">{state.output.join('\n')}</pre>
              </>
            )}
          </>
        )}
        {state.kind === 'error' && (
          <p className="se-error" role="alert">
            {state.text}
          </p>
        )}
        {state.kind === 'done' && (
          <>
            <p className={`se-outcome se-outcome-${state.report.status}`}>
              Outcome: <strong>{TEST_STATUS_LABEL[state.report.status]}</strong>
              {state.report.durationMs !== null && ` in ${state.report.durationMs} ms`}
            </p>
            {state.report.error && <p className="se-error">{state.report.error}</p>}
            <h4>Output</h4>
            <pre className="se-output">{state.report.output || '(no output)'}</pre>
            <h4>Actions it would take</h4>
            {state.report.actions.length ? (
              <ol className="se-test-actions">
                {state.report.actions.map((a, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the report's actions are a fixed, ordered list.
                  <li key={i}>
                    {actionLabel(a)}: {optionsSummary(a)}
                  </li>
                ))}
              </ol>
            ) : (
              <p>None.</p>
            )}
            {state.report.actionsOmitted ? (
              <p>
                And {formatCount(state.report.actionsOmitted)} more, not listed: a test lists its first{' '}
                {SCRIPT_LIMITS.testActions}.
              </p>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
