// The activity trail's filter, its CSV and the `activity` command as the console and the palette
// drive it: what is asked of the API, what is printed, where it navigates, and the messages.

import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import type { AppServices, CommandContext, Surface } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { CommandError, parseArgs } from '../../commands/registry.ts';
import {
  ACTIVITY_HEADINGS,
  type ActivityEntry,
  activityParams,
  parseSince,
  SINCE_MESSAGE,
} from '../../src/domain/activity.ts';
import type { Http } from '../../src/web/api/http.ts';
import { createSentinelApi } from '../../src/web/api/sentinel.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { activityCsv } from '../../src/web/views/activity/activityCsv.ts';

const NOW = 1_800_000_000;
const island: EntityRef = { kind: 'server', id: 's-island', label: 'Island PvE' };
const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => [island].filter((e) => kinds.includes(e.kind) && e.label === text),
};
const registry = createRegistry();

const entry = (over: Partial<ActivityEntry> = {}): ActivityEntry => ({
  activityId: 'a-1',
  time: NOW,
  userId: 'u-1',
  username: 'Moderator',
  usernameFull: 'Moderator#1a2b3c4d',
  method: 'POST',
  route: '/sentinel/chat',
  kind: 'chat',
  action: 'send',
  target: 's-island',
  targetName: 'Island PvE',
  summary: 'message: hello',
  serviceIds: ['s-island'],
  groupIds: [],
  outcome: 'ok',
  ...over,
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW * 1000);
});
afterEach(() => vi.useRealTimers());

describe('the filter', () => {
  it('asks for what is filled in: a trimmed user, a clean kind list, since counted back from now', () => {
    expect(activityParams({}, NOW * 1000)).toEqual({});
    expect(activityParams({ user: '  ', kind: ' , ', sinceSeconds: null }, NOW * 1000)).toEqual({});
    expect(
      activityParams({ user: ' Moder ', kind: 'chat, gameCommands,', sinceSeconds: 604800 }, NOW * 1000),
    ).toEqual({ user: 'Moder', kind: 'chat,gameCommands', since: String(NOW - 604800) });
  });

  it('reads since as a duration, blank as the whole trail, and names what it cannot read', () => {
    expect(parseSince('7d')).toBe(604800);
    expect(parseSince('1w 2d')).toBe(777600);
    expect(parseSince('  ')).toBeNull();
    for (const bad of ['soon', 'perm', '7x', '-1d']) expect(() => parseSince(bad)).toThrow(SINCE_MESSAGE);
  });
});

describe('the CSV', () => {
  it('holds every column, the time in ISO 8601, and reads back as written', () => {
    const csv = activityCsv([
      entry(),
      entry({ activityId: 'a-2', target: null, targetName: null, outcome: 'forbidden' }),
    ]);
    const rows = Papa.parse<string[]>(csv).data;
    expect(rows[0]).toEqual([...ACTIVITY_HEADINGS]);
    expect(rows[1]).toEqual([
      new Date(NOW * 1000).toISOString(),
      'Moderator#1a2b3c4d',
      'Chat',
      'Send',
      'Island PvE',
      'message: hello',
      'ok',
    ]);
    expect(rows[2][4]).toBe('');
    expect(rows[2][6]).toBe('forbidden');
  });

  it('never lets a summary typed by someone run as a spreadsheet formula', () => {
    const csv = activityCsv([entry({ summary: '=HYPERLINK("http://x")', usernameFull: '@evil' })]);
    const [, row] = Papa.parse<string[]>(csv).data;
    expect(row[5]).toBe(`'=HYPERLINK("http://x")`);
    expect(row[1]).toBe("'@evil");
  });
});

describe('the activity command', () => {
  function context(surface: Surface) {
    const http = vi.fn(
      async (_m: string, _p: string, _o?: unknown): Promise<unknown> => ({
        totalResults: 2,
        pageSize: 100,
        pages: 1,
        page: 1,
        results: [entry(), entry({ activityId: 'a-2', kind: 'services', action: 'update', summary: '' })],
      }),
    );
    const navigate = vi.fn();
    const info = vi.fn();
    const ctx: CommandContext = {
      route: '/servers/s-island/logs',
      selection: { kind: null, ids: [] },
      user: null,
      surface,
      entities: lookup,
      app: {
        api: createSentinelApi(http as unknown as Http),
        navigate,
        dialogs: { info },
      } as unknown as AppServices,
      permissions: () => null,
    };
    return { ctx, http, navigate, info };
  }

  async function values(line: string) {
    const parsed = parseLine(line, registry);
    expect(parsed.errors).toEqual([]);
    const r = await parseArgs(parsed.cmd!, parsed.raw, lookup, context('console').ctx);
    expect(r.errors).toEqual({});
    return r.values;
  }

  it('prints the filtered trail of a server in the console', async () => {
    const v = await values('activity "Island PvE" --user Moder --since 7d');
    const { ctx, http } = context('console');
    const result = await registry.get('activity.show')!.run(v as never, ctx);
    expect(http).toHaveBeenCalledWith(
      'GET',
      '/sentinel/activity',
      expect.objectContaining({
        query: { serviceId: 's-island', user: 'Moder', since: String(NOW - 604800), pageSize: 100 },
      }),
    );
    expect(result?.message).toBe('Activity of Island PvE.');
    expect(result?.table?.columns).toEqual([...ACTIVITY_HEADINGS]);
    expect(result?.table?.rows[1]).toEqual([
      new Date(NOW * 1000).toISOString(),
      'Moderator#1a2b3c4d',
      'Services',
      'Update',
      'Island PvE',
      '',
      'ok',
    ]);
  });

  it('takes the server in view, and opens its Activity tab from the palette', async () => {
    const v = await values('activity');
    expect(v.target).toMatchObject({ kind: 'server', id: 's-island' });
    const { ctx, http, navigate } = context('palette');
    await registry.get('activity.show')!.run(v as never, ctx);
    expect(navigate).toHaveBeenCalledWith('/servers/s-island/activity');
    expect(http).not.toHaveBeenCalled();
  });

  it('shows what a filter given in the palette matches in a dialog', async () => {
    const v = await values('activity --kind chat');
    const { ctx, http, navigate, info } = context('palette');
    await registry.get('activity.show')!.run(v as never, ctx);
    expect(navigate).not.toHaveBeenCalled();
    expect(http).toHaveBeenCalledWith(
      'GET',
      '/sentinel/activity',
      expect.objectContaining({ query: { serviceId: 's-island', kind: 'chat', pageSize: 100 } }),
    );
    expect(info).toHaveBeenCalledWith('Activity of s-island.', [
      [
        `${new Date(NOW * 1000).toISOString()} Moderator#1a2b3c4d`,
        'Chat · Send · Island PvE · message: hello · ok',
      ],
      [`${new Date(NOW * 1000).toISOString()} Moderator#1a2b3c4d`, 'Services · Update · Island PvE · ok'],
    ]);
  });

  it('refuses a since it cannot read, naming the field', async () => {
    const v = await values('activity --since soon');
    const { ctx, http } = context('console');
    const run = registry.get('activity.show')!.run(v as never, ctx);
    await expect(run).rejects.toThrow(CommandError);
    await expect(run).rejects.toMatchObject({ message: SINCE_MESSAGE, field: 'since' });
    expect(http).not.toHaveBeenCalled();
  });
});
