// The CodeMirror 6 editor behind CodeEditor: JavaScript with completion of the beacon API and of
// the event's fields, syntax errors marked as the author types, and the script reference on F1.
// Keyboard: CodeMirror's convention, Tab indents and Escape then Tab (or Shift+Tab) leaves; the
// console's chords that work in text fields (Ctrl+K, F6, …) keep working here.

import { autocompletion, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { forEachDiagnostic, lintKeymap } from '@codemirror/lint';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useContext, useEffect, useId, useRef, useState } from 'react';
import { CommandRuntimeContext } from '../../../app/runtime.ts';
import { beaconCompletion } from './beaconCompletion.ts';
import type { CodeEditorProps } from './CodeEditor.tsx';
import { yieldToConsole } from './consoleKeys.ts';
import { COMPLETION_PAGE, editorTheme } from './editorTheme.ts';
import { ScriptReference } from './ScriptReference.tsx';
import { syntaxLinter } from './syntaxCheck.ts';
import './codeEditor.css';

/** How long, after Escape, Tab moves the focus out instead of indenting (CodeMirror's own figure). */
const TAB_LEAVES_MS = 2000;

/** Marks the transaction that loads a new value from the props, so it is not echoed to onChange. */
const fromProps = Annotation.define<boolean>();

/** Values sent to onChange that the page may still hand back; beyond this many it is not listening. */
const ECHOES_KEPT = 64;

interface Problem {
  line: number;
  column: number;
  message: string;
}

function firstProblem(state: EditorState): Problem | null {
  let found: Problem | null = null;
  forEachDiagnostic(state, (d, from) => {
    if (found) return;
    const line = state.doc.lineAt(from);
    found = { line: line.number, column: from - line.from + 1, message: d.message };
  });
  return found;
}

const problemText = (p: Problem | null) =>
  p ? `Syntax error on line ${p.line}, column ${p.column}: ${p.message}.` : '';

/** The visible label of the field: `<label for={id}>`, given an id so the editor can name it. */
function labelFor(id: string): HTMLLabelElement | null {
  const label = [...document.querySelectorAll('label')].find((l) => l.htmlFor === id) ?? null;
  if (label && !label.id) label.id = `${id}-label`;
  return label;
}

export function CodeMirrorEditor({ id, value, onChange, context, part, errorId }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const sent = useRef<string[]>([]);
  const registry = useContext(CommandRuntimeContext)?.registry;
  // The reference's search when it opens (the word at the cursor on F1), or null when it is closed.
  const [reference, setReference] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const hintId = useId();
  const problemId = useId();
  // Callbacks the editor calls, current without rebuilding the editor on each render.
  const latest = useRef({ onChange, openReference: setReference });
  latest.current.onChange = onChange;
  const [conf] = useState(() => ({
    completion: new Compartment(),
    attributes: new Compartment(),
    chords: new Compartment(),
  }));
  const [consoleKeys] = useState(yieldToConsole);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once; the effects below keep it in step with the props
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          javascript(),
          autocompletion({ icons: false, maxRenderedOptions: COMPLETION_PAGE }),
          conf.completion.of([]),
          syntaxLinter,
          editorTheme,
          conf.chords.of([]),
          conf.attributes.of([]),
          keymap.of([
            ...consoleKeys.guard([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...lintKeymap]),
            indentWithTab,
            {
              // The reference, searched for the word at the cursor (F1 on sendChat shows Send chat).
              key: 'F1',
              run: (v) => {
                const word = v.state.wordAt(v.state.selection.main.head);
                latest.current.openReference(word ? v.state.sliceDoc(word.from, word.to) : '');
                return true;
              },
            },
            {
              // Escape lets the next Tab leave. It stops here: a dialog around the editor stays open.
              key: 'Escape',
              run: (v) => {
                v.setTabFocusMode(TAB_LEAVES_MS);
                return true;
              },
              stopPropagation: true,
            },
          ]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(fromProps))) {
              const text = u.state.doc.toString();
              sent.current.push(text);
              sent.current.splice(0, sent.current.length - ECHOES_KEPT);
              latest.current.onChange(text);
            }
            setProblem((cur) => {
              const next = firstProblem(u.state);
              return problemText(next) === problemText(cur) ? cur : next;
            });
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // The page renders each value it was sent, maybe after the author typed on: those echoes are
  // not loaded back over newer text. Any other value is the page's own (a revision loaded).
  useEffect(() => {
    const echo = sent.current.lastIndexOf(value);
    if (echo >= 0) {
      sent.current.splice(0, echo + 1);
      return;
    }
    sent.current = [];
    const editor = view.current;
    if (editor && value !== editor.state.doc.toString())
      editor.dispatch({
        changes: { from: 0, to: editor.state.doc.length, insert: value },
        annotations: fromProps.of(true),
      });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({
      effects: conf.completion.reconfigure(
        javascriptLanguage.data.of({ autocomplete: beaconCompletion(part, context) }),
      ),
    });
  }, [conf, part, context]);

  useEffect(() => {
    view.current?.dispatch({ effects: conf.chords.reconfigure(consoleKeys.watch(registry)) });
  }, [conf, consoleKeys, registry]);

  // The page's <label for={id}> names the editor, and a click on it puts the cursor in the code.
  const invalid = !!errorId || problem !== null;
  useEffect(() => {
    const label = labelFor(id);
    const attributes: Record<string, string> = {
      id,
      'aria-describedby': [errorId, problemId, hintId].filter(Boolean).join(' '),
    };
    if (label) attributes['aria-labelledby'] = label.id;
    if (invalid) attributes['aria-invalid'] = 'true';
    view.current?.dispatch({
      effects: conf.attributes.reconfigure(EditorView.contentAttributes.of(attributes)),
    });
    const focus = () => view.current?.focus();
    label?.addEventListener('click', focus);
    return () => label?.removeEventListener('click', focus);
  }, [conf, id, errorId, problemId, hintId, invalid]);

  const closeReference = () => {
    setReference(null);
    view.current?.focus();
  };

  return (
    <div className="code-editor">
      <div className="code-editor-main">
        <div ref={host} className="code-editor-host" />
        <p id={problemId} className="code-editor-problem" role="status">
          {problemText(problem)}
        </p>
        <div className="code-editor-foot">
          <p id={hintId} className="code-editor-hint">
            <kbd className="ui-key">Ctrl+Space</kbd> completes, <kbd className="ui-key">F1</kbd> opens the
            reference, <kbd className="ui-key">Esc</kbd> then <kbd className="ui-key">Tab</kbd> leaves the
            code.
          </p>
          <button
            type="button"
            className="ui-button ui-button-small"
            aria-expanded={reference !== null}
            onClick={() => (reference !== null ? closeReference() : setReference(''))}
          >
            Reference
          </button>
        </div>
      </div>
      {reference !== null && <ScriptReference initialQuery={reference} onClose={closeReference} />}
    </div>
  );
}
