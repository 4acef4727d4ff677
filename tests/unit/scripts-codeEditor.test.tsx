import { currentCompletions } from '@codemirror/autocomplete';
import { EditorView } from '@codemirror/view';
import { act, cleanup, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { GlobalHotkeys } from '../../src/web/app/Hotkeys.tsx';
import { CommandRuntimeContext } from '../../src/web/app/runtime.ts';
import { CodeEditor, type CodeEditorProps } from '../../src/web/views/scripts/code/CodeEditor.tsx';
import { fakeCommandRuntime } from './commandRuntime-fixture.ts';

// jsdom has no layout, which CodeMirror measures; it does not compute isContentEditable from the
// attribute (the console's hotkeys read it to know a text field), nor the legacy keyCode from the
// key (CodeMirror reads it for Tab and Escape), as browsers do.
const KEY_CODES: Record<string, number> = {
  Backspace: 8,
  Tab: 9,
  Enter: 13,
  Shift: 16,
  Control: 17,
  Alt: 18,
  Escape: 27,
  Meta: 91,
  F1: 112,
};

beforeAll(async () => {
  // Loaded once here, so each test's lazy editor arrives at once.
  await import('../../src/web/views/scripts/code/CodeMirrorEditor.tsx');
  const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getClientRects ??= noRects;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
  if (!('isContentEditable' in HTMLElement.prototype))
    Object.defineProperty(HTMLElement.prototype, 'isContentEditable', {
      configurable: true,
      get(this: HTMLElement) {
        const owner = this.closest('[contenteditable]');
        return !!owner && owner.getAttribute('contenteditable') !== 'false';
      },
    });
  Object.defineProperty(KeyboardEvent.prototype, 'keyCode', {
    configurable: true,
    get(this: KeyboardEvent) {
      return KEY_CODES[this.key] ?? 0;
    },
  });
});

afterEach(cleanup);
// CodeMirror in jsdom takes its time per key press, more so on a loaded machine.
configure({ asyncUtilTimeout: 8000 });
const SLOW = { timeout: 60_000 };

// The editor's props for a chat script's code and for the Common JavaScript block.
const CHAT_SCRIPT = { context: 'chat', part: 'script' } as const;
const COMMON_BLOCK = { context: null, part: 'common' } as const;

type Props = Partial<Omit<CodeEditorProps, 'onChange'>> & { onChange?: (v: string) => void };

/** The editor as a page uses it: a visible label, a field before and after, a controlled value. */
function Page({ onChange, ...props }: Props) {
  const [value, setValue] = useState(props.value ?? '');
  return (
    <>
      <button type="button">Before</button>
      <label htmlFor="script-code">Code</label>
      <CodeEditor
        id="script-code"
        {...CHAT_SCRIPT}
        {...props}
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange?.(v);
        }}
      />
      <button type="button">After</button>
    </>
  );
}

async function setup(props: Props = {}) {
  const user = userEvent.setup();
  const utils = render(<Page {...props} />);
  const code = await screen.findByRole('textbox', { name: 'Code' });
  const doc = () => EditorView.findFromDOM(code)?.state.doc.toString();
  return { user, code, doc, ...utils };
}

/**
 * The labels of the completion list (all of them: it shows a page at a time) once it offers all of
 * `expected`: it follows the typing a moment later.
 */
async function optionsWith(code: HTMLElement, ...expected: string[]): Promise<string[]> {
  let labels: string[] = [];
  await waitFor(() => {
    expect(screen.getByRole('listbox')).toBeTruthy();
    labels = currentCompletions((EditorView.findFromDOM(code) as EditorView).state).map((c) => c.label);
    expect(labels).toEqual(expect.arrayContaining(expected));
  });
  return labels;
}

describe('the script code editor', SLOW, () => {
  it('is named by its label, described by the refused save, and types into the value', async () => {
    const onChange = vi.fn();
    const { user, code, doc } = await setup({ errorId: 'code-error', onChange });
    expect(code.id).toBe('script-code');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(code.getAttribute('aria-describedby')?.split(' ')).toContain('code-error');
    await user.click(code);
    await user.keyboard('beacon.log(1);');
    expect(doc()).toBe('beacon.log(1);');
    expect(onChange).toHaveBeenLastCalledWith('beacon.log(1);');
  });

  it('completes the beacon API, and takes a completion with Enter', async () => {
    const { user, code, doc } = await setup();
    await user.click(code);
    await user.keyboard('beacon.send');
    await optionsWith(code, 'sendChat');
    const info = screen.getByRole('listbox');
    expect(within(info).getAllByRole('option')[0].textContent).toMatch(/sendChat\(message/);
    // CodeMirror takes Enter as a completion only once the list has shown for 75 ms
    // (interactionDelay), so a quick typist's Enter is still a new line.
    await new Promise((r) => setTimeout(r, 100));
    await user.keyboard('{Enter}');
    expect(doc()).toBe('beacon.sendChat');
  });

  it("completes the event's fields of its context, and none in the Common JavaScript block", async () => {
    const dino = await setup({ context: 'dinoTamed' });
    await dino.user.click(dino.code);
    await dino.user.keyboard('beacon.eventData.');
    const dinoFields = await optionsWith(dino.code, 'dinoName', 'dinoSpecies', 'dinoLevel', 'serviceName');
    // A dino event has no player; a random field is a Simple placeholder, not in eventData.
    expect(dinoFields).not.toContain('playerName');
    expect(dinoFields).not.toContain('randomDigit');
    dino.unmount();

    const chat = await setup({ context: 'chat' });
    await chat.user.click(chat.code);
    await chat.user.keyboard('beacon.eventData.');
    const chatFields = await optionsWith(chat.code, 'playerName', 'message', 'tribeName');
    expect(chatFields).not.toContain('dinoName');
    chat.unmount();

    const common = await setup(COMMON_BLOCK);
    await common.user.click(common.code);
    await common.user.keyboard('beacon.eventData.');
    await new Promise((r) => setTimeout(r, 500));
    expect(screen.queryByRole('listbox')).toBeNull();
    await common.user.keyboard('{Control>}a{/Control}beacon.kick');
    await optionsWith(common.code, 'kickPlayer');
  });

  it('marks a syntax error as it is typed, for the eye and the screen reader, and clears it when fixed', async () => {
    const { user, code } = await setup();
    await user.click(code);
    await user.keyboard('const x = ;');
    const status = await screen.findByText('Syntax error on line 1, column 11: Unexpected token.');
    expect(status.getAttribute('role')).toBe('status');
    expect(code.getAttribute('aria-describedby')?.split(' ')).toContain(status.id);
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(document.querySelector('.cm-lintRange-error')).not.toBeNull();
    await user.keyboard('{ArrowLeft}1');
    await waitFor(() => expect(status.textContent).toBe(''));
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBeNull());
  });

  it('indents on Tab, and Escape then Tab or Shift+Tab leaves', async () => {
    const { user, code, doc } = await setup();
    await user.click(code);
    await user.keyboard('{Tab}');
    expect(doc()).toBe('  ');
    expect(document.activeElement).toBe(code);
    // Tab leaves within two seconds of Escape: the clock stands still, however slow the machine.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    await user.keyboard('{Escape}{Tab}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reference' }));
    await user.click(code);
    await user.keyboard('{Escape}{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Before' }));
    vi.restoreAllMocks();
    expect(doc()).toBe('  ');
  });

  it('opens the reference on F1 at the word under the cursor, searches it, and gives the keyboard back on Escape', async () => {
    const { user, code } = await setup();
    await user.click(code);
    await user.keyboard('beacon.kickPlayer{Escape}{F1}');
    const panel = screen.getByRole('region', { name: 'Script reference' });
    const search = within(panel).getByRole('searchbox', { name: 'Search' });
    expect(document.activeElement).toBe(search);
    expect((search as HTMLInputElement).value).toBe('kickPlayer');
    expect(within(panel).getByRole('heading', { name: 'Kick player (kickPlayer)' })).toBeTruthy();
    expect(within(panel).queryByRole('heading', { name: 'Send chat (sendChat)' })).toBeNull();
    // The word is selected: what is typed replaces it.
    await user.keyboard('playerName');
    expect((search as HTMLInputElement).value).toBe('playerName');
    expect(within(panel).getByRole('heading', { name: 'Fields' })).toBeTruthy();
    const fields = within(panel)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(fields.some((r) => r.startsWith('playerName'))).toBe(true);
    expect(fields.some((r) => r.startsWith('dinoName'))).toBe(false);
    await user.clear(search);
    await user.keyboard('Send chat');
    expect(within(panel).getByRole('heading', { name: 'Send chat (sendChat)' })).toBeTruthy();
    expect(within(panel).getByText(/beacon\.sendChat\(/, { selector: 'pre' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Script reference' })).toBeNull();
    expect(document.activeElement).toBe(code);
  });

  it('shows a value the page sets, without echoing it back as a change', async () => {
    const onChange = vi.fn();
    function Outer() {
      const [value, setValue] = useState('let a = 1;');
      return (
        <>
          <label htmlFor="c">Code</label>
          <CodeEditor id="c" value={value} onChange={onChange} {...COMMON_BLOCK} />
          <button type="button" onClick={() => setValue('let b = 2;')}>
            Load
          </button>
        </>
      );
    }
    const user = userEvent.setup();
    render(<Outer />);
    const code = await screen.findByRole('textbox', { name: 'Code' });
    expect(code.textContent).toBe('let a = 1;');
    await user.click(screen.getByRole('button', { name: 'Load' }));
    expect(code.textContent).toBe('let b = 2;');
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('the code editor in the console', SLOW, () => {
  async function shell() {
    const runtime = fakeCommandRuntime(createRegistry(), '/scripts/add');
    render(
      <Provider store={createStore()}>
        <CommandRuntimeContext.Provider value={runtime}>
          <GlobalHotkeys rt={runtime} />
          <Page />
        </CommandRuntimeContext.Provider>
      </Provider>,
    );
    const code = await screen.findByRole('textbox', { name: 'Code' });
    const ran = () => vi.mocked(runtime.run).mock.calls.map(([cmd]) => cmd.id);
    const doc = () => EditorView.findFromDOM(code)?.state.doc.toString();
    return { user: userEvent.setup(), code, ran, doc };
  }

  it("types the console's plain keys as text, undoes its own text, and leaves the console its chords", async () => {
    const { user, code, ran, doc } = await shell();
    await user.click(code);
    await user.keyboard('gs?`:/r');
    // The backquote opens a template string, which the editor closes.
    expect(doc()).toBe('gs?`:/r`');
    await user.keyboard('{Control>}z{/Control}');
    // The editor's own undo took back (at least the last run of) the typing.
    expect(doc()).not.toBe('gs?`:/r`');
    expect('gs?`:/r`'.startsWith(doc() ?? 'none')).toBe(true);
    expect(ran()).toEqual([]);
    // CodeMirror's Ctrl+Shift+\ (matching bracket) gives way to the console's split down.
    await user.keyboard('{Control>}{Shift>}[Backslash]{/Shift}{/Control}{Control>}k{/Control}');
    await act(async () => {});
    expect(ran()).toEqual(['ui.pane.splitDown', 'ui.palette']);
  });
});
