// The command palette (DESIGN "Palette") on cmdk: commands and entities in one virtualised list
// with our own uFuzzy filter, then a prompt per argument of the chosen command. Rendered once at
// the root, inside the Jotai Provider and CommandRuntimeContext; opened through `openPalette`.

import { Command } from 'cmdk';
import { useAtom } from 'jotai';
import {
  type KeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { ENTITY_KINDS, type EntityRef } from '../../../commands/args.ts';
import { type Command as Cmd, valuesInView } from '../../../commands/registry.ts';
import { useCommandRuntime } from '../app/runtime.ts';
import type { EntityIndex } from '../store/entityIndex.ts';
import { useEntityIndexVersion } from '../store/useEntityIndexVersion.ts';
import { type CommandSource, commandSource } from './commandRows.ts';
import { entitySearch, paletteLookup, prepareEntitySearch } from './entitySearch.ts';
import { runWhenIdle } from './idle.ts';
import { keyLabels } from './keyLabels.ts';
import {
  argLabel,
  currentArg,
  describeFailure,
  type Prompt,
  parseStep,
  type RunFailure,
  startPrompt,
  suggestions,
  withRaw,
} from './prompt.ts';
import { COMMAND_PROPS, RowList, selectedValue, VISIBLE_ROWS } from './RowList.tsx';
import { RemoteEntitySearch } from './remoteSearch.ts';
import { commandRow, entityRow, type PaletteRow } from './rows.ts';
import { type PaletteState, paletteAtom } from './state.ts';
import { warmRows } from './warmRows.tsx';
import './palette.css';

/** From this many arguments on, the palette offers a form (Ctrl+Enter): prompt after prompt is a long way. */
export const FORM_ARGS = 3;

const offersForm = (cmd: Cmd) => Object.keys(cmd.args ?? {}).length >= FORM_ARGS;

/** At most this many entities are listed; uFuzzy ranks only result sets this small anyway. */
export const ENTITY_CAP = 1000;

export function Palette() {
  const [state, setState] = useAtom(paletteAtom);
  const close = useCallback(() => setState({ open: false, query: '' }), [setState]);
  const runtime = useCommandRuntime();
  // The palette is mounted (closed) when its chunk loads at idle: render the command list once
  // off-document then, so that opening runs cmdk's and React's mount paths warm (about 6 ms of an
  // opening's 24 at 1k otherwise, bench/palette/profile.mjs).
  useEffect(() => {
    const rows = commandSource(runtime.registry, runtime.context('palette'), []).initial.map(commandRow);
    return runWhenIdle(warmRows([rows, rows.slice(1)]));
  }, [runtime]);
  return state.open ? (
    <PaletteDialog initialQuery={state.query} pending={state.pending} onClose={close} />
  ) : null;
}

/** A command handed over by a menu or hotkey: the prompt asks only for what it does not have. */
function pendingPrompt(cmd: Cmd | undefined, values: Record<string, unknown>): Prompt | null {
  if (!cmd) return null;
  const p = startPrompt(cmd);
  const names = p.names.filter((n) => values[n] === undefined);
  return { ...p, names, raws: names.map(() => ''), values };
}

function resultRows(source: CommandSource, index: EntityIndex, query: string): PaletteRow[] {
  const rows = source.search(query).map(commandRow);
  const q = query.trim();
  if (q === '') return rows;
  // Entities are found by id too, but exactly: fuzzy matching of ids would bury names in digit noise.
  const byId = ENTITY_KINDS.flatMap((k) => index.get(k, q) ?? []);
  for (const ref of byId) rows.push(entityRow(ref));
  // The search's refs are the index's own objects, each once: only an id hit can repeat among
  // them, so no key per row is made (1,000 strings a keystroke, mostly garbage at once).
  for (const ref of entitySearch(index).search(q, ENTITY_CAP))
    if (!byId.includes(ref)) rows.push(entityRow(ref));
  return rows;
}

/**
 * The rows with what the server found for their query (remoteSearch.ts) after them: arriving
 * late, the answer never moves the row the highlight is on, and the index is not searched again
 * for it. What the index holds is listed as the index's object, once.
 */
function withRemote(rows: PaletteRow[], index: EntityIndex, remote: readonly EntityRef[] | undefined) {
  if (!remote || remote.length === 0) return rows;
  const listed = new Set(rows.flatMap((r) => (r.type === 'entity' ? [r.ref] : [])));
  const out = [...rows];
  for (const ref of remote) {
    const held = index.get(ref.kind, ref.id) ?? ref;
    if (listed.has(held)) continue;
    listed.add(held);
    out.push(entityRow(held));
  }
  return out;
}

/**
 * A broad query and a narrower one, as typing goes: most entities contain an `e`. Both stop
 * scanning early at 100k entities (a full scan would be a long step), and two renders (a mount,
 * then an update) compile what a keystroke runs.
 */
const WARM_QUERIES = ['e', 'e 1'];

/**
 * Background preparation once the palette is open: the entity search, then the rows of a few
 * queries, computed and typed off-document so that the first keystrokes run compiled code, then
 * the results of every possible first key.
 */
function* preparePalette(source: CommandSource, index: EntityIndex): Generator<void> {
  yield* prepareEntitySearch(index);
  // From the command list first, as the first keystroke goes: its rows change kind.
  const rowSets: PaletteRow[][] = [resultRows(source, index, '')];
  for (const q of WARM_QUERIES) {
    rowSets.push(resultRows(source, index, q));
    yield;
  }
  yield* warmRows(rowSets);
  yield* entitySearch(index).fuzzy.prepareFirstKeys();
}

function PaletteDialog({
  initialQuery,
  pending,
  onClose,
}: {
  initialQuery: string;
  pending?: PaletteState['pending'];
  onClose(): void;
}) {
  const runtime = useCommandRuntime();
  const [returnFocus] = useState(() => document.activeElement);
  // Visibility, availability and "recent" are read once, as of the moment the palette opened.
  const [source] = useState(() =>
    commandSource(runtime.registry, runtime.context('palette'), runtime.recent()),
  );
  const lookup = useMemo(() => paletteLookup(runtime.index, runtime.entities), [runtime]);
  const version = useEntityIndexVersion(runtime.index);
  const [query, setQuery] = useState(initialQuery);
  const [prompt, setPrompt] = useState<Prompt | null>(() =>
    pending ? pendingPrompt(runtime.registry.get(pending.commandId), pending.values) : null,
  );
  const [active, setActive] = useState(0);
  // Whether the keyboard moved the highlight since the input last changed: only then does Enter
  // on an empty argument take a suggestion instead of leaving the argument blank.
  const [moved, setMoved] = useState(false);
  const [scrollTick, setScrollTick] = useState(0);
  const [failure, setFailure] = useState<RunFailure | null>(null);
  const busy = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const [remote] = useState(() => (runtime.remote ? new RemoteEntitySearch(runtime.remote) : null));
  // Bumped when the server answers: the answer is then kept in `remote` for its query.
  const [answers, setAnswers] = useState(0);

  useLayoutEffect(
    () => () => {
      if (returnFocus instanceof HTMLElement && returnFocus.isConnected) returnFocus.focus();
    },
    [returnFocus],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: version restarts the preparation
  useEffect(() => runWhenIdle(preparePalette(source, runtime.index)), [source, runtime.index, version]);

  const input = prompt ? prompt.raws[prompt.step] : query;
  const arg = prompt ? currentArg(prompt) : null;
  // Entities the console does not hold are asked of the server once the query stands; the list
  // shows what it holds meanwhile, so a keystroke never waits for the network.
  useEffect(() => {
    if (!remote) return;
    if (prompt) remote.cancel();
    else remote.request(input, () => setAnswers((n) => n + 1));
  }, [remote, prompt, input]);
  useEffect(() => () => remote?.cancel(), [remote]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: answers brings in the server's results
  const found = useMemo(
    () => (remote && !prompt ? remote.cached(input) : undefined),
    [remote, prompt, input, answers],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: version invalidates the entity results
  const local = useMemo(
    () => (arg ? suggestions(arg, input, lookup) : resultRows(source, runtime.index, input)),
    [arg, input, lookup, source, runtime, version],
  );
  const rows = useMemo(() => withRemote(local, runtime.index, found), [local, runtime, found]);

  // A secret (a password) is typed hidden. cmdk's input takes no `type` and React writes its own
  // "text" back on each render, so the element's is set after every render.
  const hidden = arg?.isSecret === true;
  useEffect(() => {
    if (inputRef.current) inputRef.current.type = hidden ? 'password' : 'text';
  });

  const resetList = () => {
    setActive(0);
    setMoved(false);
  };

  const onInput = (value: string) => {
    if (prompt) setPrompt(withRaw(prompt, value));
    else setQuery(value);
    resetList();
    setFailure(null);
  };

  const execute = async (cmd: Cmd, values: Record<string, unknown>, from: Prompt | null) => {
    busy.current = true;
    try {
      await runtime.run(cmd, values, 'palette');
      onClose();
    } catch (e) {
      const f = describeFailure(e);
      const step = from && f.field ? from.names.indexOf(f.field) : -1;
      if (from && step >= 0) setPrompt({ ...from, step });
      setFailure(f);
    } finally {
      busy.current = false;
    }
  };

  const submit = async (p: Prompt) => {
    busy.current = true;
    setPrompt(p);
    const r = await parseStep(p, lookup);
    busy.current = false;
    if (!r.ok) {
      setFailure({ summary: r.error });
      return;
    }
    const values = { ...p.values, [p.names[p.step]]: r.value };
    if (p.step + 1 < p.names.length) {
      setPrompt({ ...p, values, step: p.step + 1 });
      resetList();
      setFailure(null);
      return;
    }
    setPrompt({ ...p, values });
    await execute(p.cmd, values, p);
  };

  const choose = (index: number) => {
    const row = rows[index];
    if (!row || busy.current) return;
    setFailure(null);
    if (row.type === 'suggestion') {
      if (prompt) void submit(withRaw(prompt, row.text, row.ref));
    } else if (row.type === 'entity') {
      const open = runtime.registry.get('nav.open');
      if (open) void execute(open, { target: row.ref satisfies EntityRef }, null);
      else setFailure({ summary: 'Opening entities is not available.' });
    } else if (row.avail !== true) {
      setFailure({ summary: row.avail });
    } else {
      // What the view holds (the player on their page, the group on its page) is filled, not asked.
      const inView = valuesInView(row.cmd, runtime.context('palette'));
      const p = pendingPrompt(row.cmd, inView)!;
      if (p.names.length === 0) void execute(row.cmd, inView, null);
      else {
        setPrompt(p);
        resetList();
      }
    }
  };

  /** The chosen or prompted command as a form, with the values given so far and the text of this step. */
  const openForm = () => {
    const row = rows[active];
    const cmd = prompt?.cmd ?? (row?.type === 'command' && row.avail === true ? row.cmd : null);
    if (!cmd || !offersForm(cmd)) return;
    const typed = prompt && input !== '' ? { [prompt.names[prompt.step]]: input } : {};
    runtime.context('palette').app.dialogs.form(cmd.id, { ...prompt?.values, ...typed });
    onClose();
  };

  const acceptIntoInput = () => {
    const row = rows[active];
    if (!row) return;
    if (prompt && row.type === 'suggestion') setPrompt(withRaw(prompt, row.text, row.ref));
    else if (!prompt)
      setQuery(row.type === 'command' ? row.cmd.title : row.type === 'entity' ? row.ref.label : '');
    resetList();
    setFailure(null);
  };

  const back = () => {
    if (!prompt) return;
    setPrompt(prompt.step > 0 ? { ...prompt, step: prompt.step - 1 } : null);
    resetList();
    setFailure(null);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.nativeEvent.isComposing) return;
    const move = (to: number) => {
      e.preventDefault();
      if (rows.length === 0) return;
      setActive(Math.max(0, Math.min(rows.length - 1, to)));
      setMoved(true);
      setScrollTick((t) => t + 1);
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(active + 1);
      case 'ArrowUp':
        return move(active - 1);
      case 'PageDown':
        return move(active + VISIBLE_ROWS);
      case 'PageUp':
        return move(active - VISIBLE_ROWS);
      case 'Home':
        return move(0);
      case 'End':
        return move(rows.length - 1);
      case 'Tab':
        e.preventDefault();
        return acceptIntoInput();
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        return onClose();
      case 'Backspace':
        if (prompt && input === '') {
          e.preventDefault();
          back();
        }
        return;
      case 'Enter':
        e.preventDefault();
        if (busy.current) return;
        if (e.ctrlKey || e.metaKey) return openForm();
        // A highlighted suggestion is taken unless blank means something here (an optional value).
        if (!prompt || (rows.length > 0 && (input !== '' || moved || !currentArg(prompt).isOptional)))
          return choose(active);
        return void submit(prompt);
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the palette closes it; Esc does so from the keyboard
    <div
      className="palette-overlay"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette">
        <Command {...COMMAND_PROPS} label="Command palette" value={selectedValue(rows, active)}>
          {prompt && (
            <div className="palette-crumbs">
              {prompt.cmd.title} › {argLabel(prompt)}
              <span className="palette-step">
                {prompt.step + 1}/{prompt.names.length}
              </span>
            </div>
          )}
          <Command.Input
            ref={inputRef}
            autoFocus
            className="palette-input"
            value={input}
            onValueChange={onInput}
            onKeyDown={onKeyDown}
            placeholder={prompt ? argLabel(prompt) : 'Search commands, servers, players, dinos…'}
          />
          {arg && prompt && (
            <div className="palette-help">
              {arg.help ?? arg.hint()}
              {arg.isOptional && ' · optional: Enter leaves it blank'}
            </div>
          )}
          {(prompt
            ? offersForm(prompt.cmd)
            : rows[active]?.type === 'command' && offersForm(rows[active].cmd)) && (
            <div className="palette-form-hint">
              <kbd>{keyLabels('mod+enter').join(' ')}</kbd> opens {prompt?.cmd.title ?? 'it'} as a form
            </div>
          )}
          {failure && (
            <div className="palette-error" role="alert">
              {failure.summary}
              {failure.reason && <div className="palette-reason">{failure.reason}</div>}
            </div>
          )}
          <RowList
            rows={rows}
            active={active}
            scrollTick={scrollTick}
            label={prompt ? `Suggestions for ${argLabel(prompt)}` : 'Commands and entities'}
            input={inputRef}
            onChoose={choose}
            // The pointer highlights without counting as a keyboard move.
            onHover={setActive}
          />
          {rows.length === 0 && !prompt && <div className="palette-empty">No matches.</div>}
        </Command>
      </div>
    </div>
  );
}
