import xh from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import type { CommandContext, CommandResult } from '../../commands/context.ts';
import { type Command, execute } from '../../commands/registry.ts';
import { NO_SELECTION } from '../../src/domain/resolver.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { History, type HistoryStorage } from '../../src/web/terminal/history.ts';
import { ConsoleSession, type SessionRuntime } from '../../src/web/terminal/session.ts';
import { entities, registry } from './terminal-fixtures.ts';

const memory = (): HistoryStorage => {
  const data = new Map<string, string>();
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
};

type Run = (cmd: Command, values: Record<string, unknown>) => Promise<CommandResult | undefined>;

function setup(run: Run = async () => undefined, cols = 80) {
  const term = new xh.Terminal({ cols, rows: 30, allowProposedApi: true, logLevel: 'off' });
  const replies: string[] = [];
  term.onData((d) => replies.push(d));
  const calls: { id: string; values: Record<string, unknown> }[] = [];
  const commands = registry();
  const forms: [string, Record<string, unknown> | undefined][] = [];
  const history = new History('u', memory());
  // What the runtime keeps: the last undo, from whatever ran it.
  let last: { title: string; undo: () => Promise<void> } | null = null;
  const ctx = {
    // The server in view fills `server` through the resolver.
    route: '/servers/s1',
    selection: NO_SELECTION,
    entities,
    surface: 'console',
    user: null,
    permissions: () => null,
    app: {
      dialogs: { form: (id: string, known?: Record<string, unknown>) => forms.push([id, known]) },
      catalogue: { all: () => commands.all(), find: (name: string) => commands.find(name) },
      terminal: { history: () => history.entries() },
      undo: {
        available: () => last !== null,
        run: async () => {
          const { title, undo } = last!;
          last = null;
          await undo();
          return title;
        },
      },
    },
  } as unknown as CommandContext;
  const runtime: SessionRuntime = {
    registry: commands,
    entities,
    context: () => ctx,
    run: async (cmd, values, surface) => {
      expect(surface).toBe('console');
      // The console's own commands and undo run for real; the others answer what the test says.
      if (cmd.scope === 'terminal' || cmd.id === 'ui.undo') return execute(cmd, values, ctx);
      calls.push({ id: cmd.id, values });
      const result = await run(cmd, values);
      if (result?.undo) last = { title: cmd.title, undo: result.undo };
      return result;
    },
  };
  const writes: string[] = [];
  const sink = {
    get cols() {
      return term.cols;
    },
    write: (data: string, done?: () => void) => {
      writes.push(data);
      term.write(data, done);
    },
  };
  const session = new ConsoleSession(sink, runtime, history);
  session.start();
  const flush = () => new Promise<void>((r) => term.write('', r));
  const buffer = term.buffer.active;
  return {
    term,
    calls,
    forms,
    replies,
    writes,
    session,
    async type(data: string) {
      session.input(data);
      await session.idle();
      await flush();
    },
    screen: () =>
      Array.from({ length: buffer.length }, (_, y) => buffer.getLine(y)!.translateToString(true))
        .filter((l) => l !== '')
        .join('\n'),
    prompt: () => buffer.getLine(buffer.baseY + buffer.cursorY)!.translateToString(true),
    cursor: () => buffer.cursorX,
  };
}

describe('ConsoleSession', () => {
  it('shows a banner and a prompt, runs a command and prints its table', async () => {
    const t = setup(async () => ({
      message: 'Servers: 2',
      table: {
        columns: ['Name', 'Players'],
        rows: [
          ['Island', 12],
          ['Ragnarok', 3],
        ],
      },
    }));
    await t.type('');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('servers\r');
    expect(t.calls).toEqual([{ id: 'server.list', values: {} }]);
    expect(t.screen()).toContain(
      ['palisade> servers', 'Servers: 2', 'Name      Players', '────────  ───────', 'Island         12'].join(
        '\n',
      ),
    );
    expect(t.prompt()).toBe('palisade> ');
  });

  it('fills arguments not typed from the context (the server in view)', async () => {
    const t = setup();
    await t.type('server.restart --force\r');
    expect(t.calls).toEqual([
      {
        id: 'server.restart',
        values: expect.objectContaining({ server: expect.objectContaining({ id: 's1' }), force: true }),
      },
    ]);
  });

  it('opens the command as a form on --form, prefilled with what was typed, bad values included', async () => {
    const t = setup();
    await t.type('ban "Big Bob" --form soon griefing\r');
    expect(t.forms).toEqual([['ban.create', { player: 'Big Bob', expires: 'soon', comments: 'griefing' }]]);
    expect(t.calls).toEqual([]);
    expect(t.screen()).toContain('Ban player: opened as a form.');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('nosuch --form\r');
    expect(t.forms).toHaveLength(1);
    expect(t.screen()).toContain('Unknown command "nosuch"');
  });

  it('passes typed, resolved values to the runtime', async () => {
    const t = setup();
    await t.type('ban "Big Bob" 7d griefing at base\r');
    expect(t.calls[0]).toEqual({
      id: 'ban.create',
      values: {
        player: { kind: 'player', id: 'p2', label: 'Big Bob' },
        expires: 604800,
        comments: 'griefing at base',
      },
    });
  });

  it('on an API error prints message and reason, clears the prompt, and ↑ brings the same line back', async () => {
    const t = setup(async () => {
      throw new ApiError('Ban failed', 'generic', 400, 'Player is immune');
    });
    await t.type('ban Bob 7d fail\r');
    expect(t.screen()).toContain('Ban failed\nPlayer is immune');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('\x1b[A');
    expect(t.prompt()).toBe('palisade> ban Bob 7d fail');
    expect(t.cursor()).toBe('palisade> ban Bob 7d fail'.length);
    await t.type('\r');
    expect(t.calls).toHaveLength(2);
  });

  it('names the field of parse and validation errors, and clears the prompt as a shell does', async () => {
    const t = setup();
    await t.type('ban Nobody soon\r');
    expect(t.screen()).toContain('--player: No player matches "Nobody".');
    expect(t.screen()).toContain('--comments: Comments is required.');
    expect(t.screen()).toContain('Usage: ban.create <player> [expires:duration] <comments>…');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('\x1b[A');
    expect(t.prompt()).toBe('palisade> ban Nobody soon');
    await t.type('\x15bna\r');
    expect(t.screen()).toContain('Unknown command "bna". Type help to list commands.\nDid you mean "ban"?');
    // The next line is a line of its own, not glued to the unknown one.
    expect(t.prompt()).toBe('palisade> ');
    await t.type('help\r');
    expect(t.screen()).not.toContain('Unknown command "bnahelp"');
    expect(t.screen()).toMatch(/Console\s+terminal\.help\s+help\s+Help/);
  });

  it('queues keys typed while a command runs and replays them after', async () => {
    let finish: (r: CommandResult) => void = () => {};
    const t = setup(() => new Promise((r) => (finish = r)));
    t.session.input('servers\rhel');
    t.session.input('p');
    await new Promise((r) => setTimeout(r, 5));
    expect(t.screen()).toContain('…');
    expect(t.prompt()).not.toContain('help');
    finish({ message: 'done' });
    await t.session.idle();
    await t.type('');
    expect(t.screen()).not.toContain('…');
    expect(t.screen()).toContain('done');
    expect(t.prompt()).toBe('palisade> help');
  });

  it('answers help, help <command> and history itself', async () => {
    const t = setup();
    await t.type('help\r');
    expect(t.screen()).toMatch(/Players\s+ban\.create\s+ban\s+mod\+b\s+Ban player/);
    expect(t.screen()).toMatch(/Console\s+terminal\.help\s+help\s+Help/);
    expect(t.screen()).toContain('Servers');
    await t.type('help tp\r');
    expect(t.screen()).toContain('Usage: player.teleport <player> <to:coords>');
    expect(t.screen()).toMatch(/--to\s+<to:coords>\s+Destination/);
    await t.type('help ban\r');
    expect(t.screen()).toContain('Permission: manage bans');
    await t.type('help nope\r');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('history\r');
    expect(t.screen()).toMatch(/1 {2}help\n2 {2}help tp\n3 {2}help ban\n4 {2}help nope\n5 {2}history/);
    expect(t.calls).toEqual([]);
  });

  it('recalls history with ↑/↓ keeping the draft, and searches it with Ctrl+R', async () => {
    const t = setup();
    await t.type('servers\r');
    await t.type('ban Bob 7d x\r');
    await t.type('draft');
    await t.type('\x1b[A');
    expect(t.prompt()).toBe('palisade> ban Bob 7d x');
    await t.type('\x1b[A\x1b[B\x1b[B');
    expect(t.prompt()).toBe('palisade> draft');
    await t.type('\x15\x12serv');
    expect(t.prompt()).toBe("(reverse-i-search)'serv': servers");
    await t.type('zz');
    expect(t.prompt()).toBe("(failed reverse-i-search)'servzz': servers");
    await t.type('\x7f\x7f\x1b');
    expect(t.prompt()).toBe('palisade> servers');
    await t.type('\x15\x12ban\r');
    expect(t.calls.map((c) => c.id)).toEqual(['server.list', 'ban.create', 'ban.create']);
  });

  it('completes on Tab, listing several candidates below the prompt', async () => {
    const t = setup();
    await t.type('ban Al\t');
    expect(t.prompt()).toBe('palisade> ban Alice ');
    await t.type('\x15ban bi\t');
    expect(t.screen()).toContain('"Big Bob"   "Big Bill"');
    expect(t.prompt()).toBe('palisade> ban "Big B');
  });

  it('Ctrl+C clears the line with ^C, Ctrl+L clears the screen', async () => {
    const t = setup();
    await t.type('ban Bob\x03');
    expect(t.screen()).toContain('palisade> ban Bob^C');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('half\x0c');
    expect(t.screen()).toBe('palisade> half');
  });

  it('runs the last undo on "undo", a registered command', async () => {
    let undone = 0;
    const t = setup(async () => ({ message: 'Banned.', undo: async () => void undone++ }));
    await t.type('ban Bob 7d x\r');
    expect(t.screen()).toContain('Undo available: type undo.');
    await t.type('undo\r');
    expect(undone).toBe(1);
    expect(t.screen()).toContain('Undone: Ban player.');
    await t.type('undo\r');
    expect(t.screen()).toContain('Nothing to undo');
    expect(undone).toBe(1);
  });

  it('never lets hostile result text drive the terminal', async () => {
    const t = setup(async () => ({
      message: 'chat: \x1b]52;c;aGk=\x07\x1b[6n\x9b6n\x1b]0;pwned\x07',
      table: { columns: ['name'], rows: [['\x1b[2J\x1b[H\x1b[c']] },
    }));
    let title = '';
    t.term.onTitleChange((x) => (title = x));
    await t.type('servers\r');
    expect(t.replies).toEqual([]);
    expect(title).toBe('');
    expect(t.screen()).toContain('chat: ␛]52;c;aGk=␇␛[6n<U+009B>6n␛]0;pwned␇');
    expect(t.screen()).toContain('palisade> servers');
  });

  it('redraws a wrapped prompt cleanly when the terminal narrows', async () => {
    const t = setup(undefined, 40);
    const line = `ban Bob 7d ${'word '.repeat(12)}end`;
    await t.type(line);
    // The redraw is written from the erase's callback: wait for it, not for a write queued before it.
    await t.session.resize(() => t.term.resize(25, 30));
    const rows = t.screen().split('\n');
    const prompt = rows.slice(rows.findIndex((r) => r.startsWith('palisade>')));
    expect(prompt.join('')).toBe(`palisade> ${line}`);
    expect(prompt.every((r) => r.length <= 25)).toBe(true);
  });

  it('prints a long table in full in several writes, then the prompt', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`dino ${i}`, i]);
    const t = setup(async () => ({ table: { columns: ['Name', 'Level'], rows } }));
    await t.type('servers\r');
    expect(t.writes.filter((w) => w.includes('dino')).length).toBeGreaterThan(1);
    expect(t.screen()).toContain('dino 4999');
    expect(t.prompt()).toBe('palisade> ');
  });

  it('a cell that cannot be shown fails the command, and ↑ brings its line back', async () => {
    const cell = {
      toString() {
        throw new Error('Cell cannot be shown.');
      },
    } as unknown as string;
    const t = setup(async () => ({ table: { columns: ['Name'], rows: [[cell]] } }));
    await t.type('servers\r');
    expect(t.screen()).toContain('Cell cannot be shown.');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('\x1b[A');
    expect(t.prompt()).toBe('palisade> servers');
    await t.type('\x15help\r');
    expect(t.screen()).toContain('Type help <command>');
  });

  it('never leaves a typed password in the scrollback or the history, though the command gets it', async () => {
    const t = setup(async () => ({ message: 'Saved.' }));
    await t.type('rconpw Island hunter2');
    // Hidden as it is typed, one * per character, the cursor after it.
    expect(t.prompt()).toBe('palisade> rconpw Island *******');
    expect(t.cursor()).toBe('palisade> rconpw Island hunter2'.length);
    await t.type('\r');
    await t.type('rconpw Island --password="two words" --note kept\r');
    await t.type('rconpw Island half-typ\x03');
    expect(t.calls.map((c) => c.values.password)).toEqual(['hunter2', 'two words']);
    const screen = t.screen();
    expect(screen).toContain('palisade> rconpw Island ********\nSaved.');
    expect(screen).toContain('palisade> rconpw Island --password=******** --note kept\nSaved.');
    expect(screen).toContain('palisade> rconpw Island ********^C');
    expect(screen).not.toMatch(/hunter2|two words|half-typ/);
    await t.type('history\r');
    expect(t.screen()).toContain('rconpw Island --password=******** --note kept');
    expect(t.screen()).not.toMatch(/hunter2|two words/);
  });

  it('puts a refused line back for fixing with its password, still hidden', async () => {
    const t = setup(async () => {
      throw new Error('Refused.');
    });
    await t.type('rconpw Island s3cret\r');
    expect(t.screen()).toContain('Refused.');
    expect(t.prompt()).toBe('palisade> ');
    await t.type('\x1b[A');
    expect(t.prompt()).toBe('palisade> rconpw Island ******');
    await t.type('\r');
    expect(t.calls.map((c) => c.values.password)).toEqual(['s3cret', 's3cret']);
    expect(t.screen()).not.toContain('s3cret');
  });
});
