// The console's behaviour, independent of React and of the xterm build: keys in, ANSI out. The
// pane wires it to @xterm/xterm; tests drive it against @xterm/headless.

import type { Surface } from '../../../commands/context.ts';
import { parseArgs, usage } from '../../../commands/registry.ts';
import type { CommandRuntime } from '../app/runtime.ts';
import { applyCompletion, complete } from './complete.ts';
import { formatArgErrors, formatColumns, formatError, formatErrors, paint, resultSlices } from './format.ts';
import { type History, searchPrompt } from './history.ts';
import {
  decodeInput,
  edit,
  emptyLine,
  erasePrompt,
  type Key,
  type LineState,
  lineAtEnd,
  type PromptLine,
  renderPrompt,
} from './lineEditor.ts';
import { parseLine, withoutSecrets } from './parse.ts';
import { printSlices } from './printer.ts';
import { type Safe, sanitise } from './sanitise.ts';
import { tokenize } from './tokenize.ts';

/** What the session needs from a terminal: ordered writes and the current width. */
export interface TerminalSink {
  write(data: string, done?: () => void): void;
  readonly cols: number;
}

export type SessionRuntime = Pick<CommandRuntime, 'registry' | 'entities' | 'run' | 'context'>;

export const PROMPT = sanitise('palisade> ');
export const BANNER = 'Palisade console. Type help to list commands, Tab to complete.';
/** Completion lists longer than this are cut, like a shell asking "display all 2000 possibilities?". */
const LIST_LIMIT = 200;
const SURFACE: Surface = 'console';
// Scrollback is cleared too (ED 3), so Ctrl+L leaves nothing to scroll back to, as `clear` does.
const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

/** The line without its `--form` word, or null when it has none. */
function withoutFormFlag(text: string): string | null {
  const flag = tokenize(text).find((t) => t.flag && t.text === '--form');
  return flag ? text.slice(0, flag.start) + text.slice(flag.end) : null;
}

interface Outcome {
  /** Slices of lines (see resultSlices), formatted while they print. */
  output: Iterable<readonly Safe[]>;
  /** The line goes back in the prompt so it can be fixed. */
  failed: boolean;
}

interface Search {
  query: string;
  hit: { index: number; line: string } | null;
  failed: boolean;
  saved: LineState;
}

export class ConsoleSession {
  private line: LineState = emptyLine;
  /**
   * The last line that failed, as typed (a password in it too): the prompt clears as a shell's
   * does, and ↑ on the empty prompt brings this back to fix, where the history holds it masked.
   */
  private failedLine: string | null = null;
  private drawn: PromptLine | null = null;
  private search: Search | null = null;
  private running: Promise<void> | null = null;
  private queued: Key[] = [];

  constructor(
    private readonly term: TerminalSink,
    private readonly runtime: SessionRuntime,
    private readonly history: History,
  ) {}

  start(): void {
    this.term.write(`${paint('muted', sanitise(BANNER))}\r\n`);
    this.redraw();
  }

  /** xterm's onData: typed keys or pasted text. */
  input(data: string): void {
    this.feed(decodeInput(data));
  }

  /** Keys that arrive while a command runs (even in the same paste as its Enter) wait for it. */
  private feed(keys: readonly Key[]): void {
    for (let i = 0; i < keys.length; i++) {
      if (this.running) {
        this.queued.push(...keys.slice(i));
        return;
      }
      this.key(keys[i]);
    }
  }

  /**
   * Resizes the terminal through `apply` (the fit addon). xterm does not reflow the rows the
   * cursor is on, so the prompt is erased at the old width first and drawn again at the new one.
   * Resolves once it is drawn again.
   */
  resize(apply: () => void): Promise<void> {
    const drawn = this.drawn;
    if (!drawn) {
      apply();
      return Promise.resolve();
    }
    const done = new Promise<void>((resolve) =>
      this.term.write(erasePrompt(drawn, this.term.cols), () => {
        apply();
        this.redraw();
        // Resolves once the prompt drawn again is on the screen, not merely queued.
        this.term.write('', resolve);
      }),
    );
    this.drawn = null;
    return done;
  }

  /** Resolves once no command is running and its output has been written. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Whether the line editor is in Ctrl+R search (Esc then belongs to the console, not the shell). */
  get searching(): boolean {
    return this.search !== null;
  }

  private key(key: Key): void {
    if (this.search) {
      this.searchKey(this.search, key);
      return;
    }
    switch (key.kind) {
      case 'enter':
        this.submit(this.line.text);
        return;
      case 'tab':
        this.completeLine();
        return;
      case 'up':
      case 'down': {
        const retry = key.kind === 'up' && this.line.text === '' ? this.failedLine : null;
        this.failedLine = null;
        const text =
          retry ?? (key.kind === 'up' ? this.history.previous(this.line.text) : this.history.next());
        if (text !== null) this.line = lineAtEnd(text);
        break;
      }
      case 'interrupt':
        this.leavePrompt('^C\r\n', this.line.text);
        this.line = emptyLine;
        this.history.reset();
        break;
      case 'clearScreen':
        this.term.write(CLEAR_SCREEN);
        this.drawn = null;
        break;
      case 'search':
        this.search = { query: '', hit: null, failed: false, saved: this.line };
        break;
      default:
        this.line = edit(this.line, key);
    }
    this.redraw();
  }

  private searchKey(s: Search, key: Key): void {
    // Like bash: a failed search keeps showing the last match, flagged as failed.
    const find = (before?: number) => {
      const found = this.history.search(s.query, before);
      s.failed = found === null && s.query !== '';
      if (found || s.query === '') s.hit = found;
    };
    switch (key.kind) {
      case 'text':
        s.query += key.text;
        find(s.hit ? s.hit.index + 1 : undefined);
        break;
      case 'backspace':
        s.query = s.query.slice(0, -1);
        find();
        break;
      case 'search':
        if (s.query) find(s.hit?.index);
        break;
      case 'cancel':
      case 'interrupt':
        this.search = null;
        this.line = s.saved;
        break;
      default:
        // Any other key takes the match into the editor, then does what it does there.
        this.search = null;
        this.line = lineAtEnd(s.hit?.line ?? s.saved.text);
        if (key.kind !== 'escape') {
          this.key(key);
          return;
        }
    }
    this.redraw();
  }

  private promptLine(): PromptLine {
    const s = this.search;
    // A password being typed shows as one * per character, so the cursor stays where it is.
    if (!s)
      return {
        prompt: PROMPT,
        state: { ...this.line, text: withoutSecrets(this.line.text, this.runtime.registry, true) },
      };
    const text = s.hit?.line ?? '';
    const at = Math.max(0, text.toLowerCase().indexOf(s.query.toLowerCase()));
    return {
      prompt: sanitise(searchPrompt(s.query, !s.failed)),
      state: { text, cursor: at },
    };
  }

  private redraw(): void {
    const next = this.promptLine();
    this.term.write(renderPrompt(this.drawn, next, this.term.cols));
    this.drawn = next;
  }

  /**
   * Leaves the prompt on screen, the cursor after it, then writes `after` (a newline). A line
   * given as `typed` stays as the history keeps it: a password in it becomes SECRET_MASK, so the
   * scrollback holds neither the password nor its length.
   */
  private leavePrompt(after = '\r\n', typed?: string): void {
    if (this.drawn) {
      const text = typed === undefined ? this.drawn.state.text : withoutSecrets(typed, this.runtime.registry);
      const atEnd = { ...this.drawn, state: lineAtEnd(text) };
      this.term.write(renderPrompt(this.drawn, atEnd, this.term.cols) + after);
      this.drawn = null;
    }
  }

  /** Prints slices of lines below the prompt without blocking (see printSlices); resolves once all is parsed. */
  private print(slices: Iterable<readonly Safe[]>): Promise<void> {
    this.leavePrompt();
    return printSlices(this.term, slices);
  }

  private completeLine(): void {
    const c = complete(this.line.text, this.line.cursor, this.runtime.registry, this.runtime.entities);
    const applied = applyCompletion(this.line.text, c);
    this.line = { text: applied.line, cursor: applied.cursor };
    if (applied.listed.length > 0) {
      const shown = applied.listed.slice(0, LIST_LIMIT);
      const more = applied.listed.length - shown.length;
      const extra = more > 0 ? [paint('muted', sanitise(`… and ${more} more`))] : [];
      void this.print([[...formatColumns(shown, this.term.cols), ...extra]]);
    }
    this.redraw();
  }

  private submit(text: string): void {
    this.leavePrompt('\r\n', text);
    // A password typed on the line is run, but the history (kept in local storage) holds it masked.
    this.history.add(withoutSecrets(text, this.runtime.registry));
    this.line = emptyLine;
    if (text.trim() === '') {
      this.redraw();
      return;
    }
    this.term.write(paint('muted', sanitise('…')));
    const run = this.execute(text)
      .catch((err: unknown): Outcome => ({ output: [formatError(err)], failed: true }))
      .then(async ({ output, failed }) => {
        this.term.write('\r\x1b[2K');
        // A result is formatted while it prints, so a cell that cannot be shown fails here.
        const printed = await this.print(output).then(
          () => !failed,
          (err: unknown) => this.print([formatError(err)]).then(() => false),
        );
        this.failedLine = printed ? null : text;
        this.running = null;
        this.redraw();
        const queued = this.queued;
        this.queued = [];
        this.feed(queued);
      });
    this.running = run;
  }

  /** `… --form`: the command as a form, prefilled with what was typed; the form checks the values. */
  private openForm(text: string): Outcome {
    const { cmd, raw, errors } = parseLine(text, this.runtime.registry);
    if (!cmd) return { output: [formatErrors(errors)], failed: true };
    this.runtime.context(SURFACE).app.dialogs.form(cmd.id, raw);
    return { output: [[paint('muted', sanitise(`${cmd.title}: opened as a form.`))]], failed: false };
  }

  private async execute(text: string): Promise<Outcome> {
    const failed = (output: Safe[]): Outcome => ({ output: [output], failed: true });
    const form = withoutFormFlag(text);
    if (form !== null) return this.openForm(form);
    // help, clear, history and undo are registered commands too (commands/terminal.ts, ui.undo).
    const parsed = parseLine(text, this.runtime.registry);
    if (parsed.errors.length > 0 || !parsed.cmd) return failed(formatErrors(parsed.errors));
    const cmd = parsed.cmd;
    // The context fills in what the user is looking at (the server in view) for arguments not typed.
    const { values, errors } = await parseArgs(
      cmd,
      parsed.raw,
      this.runtime.entities,
      this.runtime.context(SURFACE),
    );
    if (Object.keys(errors).length > 0)
      return failed([...formatArgErrors(errors), paint('muted', sanitise(`Usage: ${usage(cmd)}`))]);
    const result = await this.runtime.run(cmd, values, SURFACE);
    if (result?.clearScreen) this.term.write(CLEAR_SCREEN);
    return { output: resultSlices(result, this.term.cols), failed: false };
  }
}
