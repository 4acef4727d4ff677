// The group commands as the console drives them: what a typed line becomes, what goes over the
// wire, the per-item errors of adding to a group (duplicate, forbidden, generic), the bits nobody
// may grant, and the link code; with the domain rules they read.

import { describe, expect, it, vi } from 'vitest';
import type { EntityLookup, EntityRef } from '../../commands/args.ts';
import type { CommandContext } from '../../commands/context.ts';
import { createRegistry } from '../../commands/index.ts';
import { execute, parseArgs } from '../../commands/registry.ts';
import {
  bitsBeyond,
  communityLinkState,
  effectiveBits,
  LINK_CODE,
  maskOfSlugs,
  randomLinkCode,
} from '../../src/domain/groups.ts';
import { Msg } from '../../src/domain/messages.ts';
import { Perm } from '../../src/domain/permissions.ts';
import { ApiError } from '../../src/web/api/http.ts';
import { parseLine } from '../../src/web/terminal/parse.ts';
import { fakeCommandContext } from './commandContext-fixture.ts';

const island: EntityRef = { kind: 'server', id: 's-island', label: 'Island PvE' };
const scorched: EntityRef = { kind: 'server', id: 's-scorched', label: 'Scorched PvP' };
const ab: EntityRef = { kind: 'server', id: 's-ab', label: 'Aberration' };
const frontier: EntityRef = { kind: 'group', id: 'g-front', label: 'Frontier' };
const known = [island, scorched, ab, frontier];
const lookup: EntityLookup = {
  search: () => [],
  resolve: async (kinds, text) => known.filter((e) => kinds.includes(e.kind) && e.label === text),
};
const registry = createRegistry();

type Answer = (method: string, path: string, opts?: { body?: Record<string, unknown> }) => unknown;

function context(route: string, answer: Answer, mine: number | null = null) {
  const http = vi.fn(async (method: string, path: string, opts?: { body?: Record<string, unknown> }) =>
    answer(method, path, opts),
  );
  const ctx = fakeCommandContext(http, { route, entities: lookup, mine });
  return { ctx, http };
}

async function runLine(line: string, ctx: CommandContext) {
  const parsed = parseLine(line, registry);
  expect(parsed.errors).toEqual([]);
  const { values, errors } = await parseArgs(parsed.cmd!, parsed.raw, lookup, ctx);
  return { errors, run: () => execute(parsed.cmd!, values, ctx) };
}

describe('group.create', () => {
  it('refuses a short name with the spec message, before anything is sent', async () => {
    const { ctx, http } = context('/groups', () => ({}));
    const { errors } = await runLine('mkgroup ab', ctx);
    expect(errors).toEqual({ name: Msg.groupNameShort });
    expect(http).not.toHaveBeenCalled();
  });

  it('sends the name, colour, chat forwarding and invite code', async () => {
    const { ctx, http } = context('/groups', () => ({ created: [{ groupId: 'g1', name: 'Frontier' }] }));
    const { run } = await runLine('mkgroup Frontier teal yes hall-42', ctx);
    expect((await run())?.message).toBe('Group Frontier created.');
    expect(http.mock.calls[0].slice(0, 2)).toEqual(['POST', '/sentinel/groups']);
    expect(http.mock.calls[0][2]?.body).toEqual({
      name: 'Frontier',
      color: 'Teal',
      enableGroupChat: true,
      discordInviteCode: 'hall-42',
    });
  });
});

describe('group.addServers', () => {
  it('adds each server, naming every one refused: duplicate, forbidden, generic', async () => {
    const { ctx, http } = context('/groups/g-front', (_m, _p, opts) => {
      const id = opts?.body?.serviceId;
      if (id === 's-scorched') throw new ApiError('Duplicate', 'duplicate', 400);
      if (id === 's-ab') throw new ApiError('Forbidden', 'forbidden', 403);
      return { created: [{}] };
    });
    const { run } = await runLine('addservers Frontier "Island PvE, Scorched PvP, Aberration"', ctx);
    const r = await run();
    expect(r?.message).toBe(
      `Added 1 of 3 servers to Frontier. Scorched PvP: It is already in the group.; Aberration: ${Msg.forbidden} (share servers on it, manage servers on the group).`,
    );
    expect(http.mock.calls.map((c) => c[2]?.body)).toEqual(
      ['s-island', 's-scorched', 's-ab'].map((serviceId) => ({
        groupId: 'g-front',
        serviceId,
        permissionsMask: 16383,
      })),
    );
  });

  it('fails as a whole when none was added, and needs at least one', async () => {
    const { ctx } = context('/groups/g-front', () => {
      throw new ApiError('Something broke', 'generic', 500);
    });
    const { run } = await runLine('addservers Frontier "Island PvE"', ctx);
    await expect(run()).rejects.toThrow('Added 0 of 1 server to Frontier. Island PvE: Something broke');
    await expect(
      execute(registry.get('group.addServers')!, { group: frontier, servers: [] }, ctx),
    ).rejects.toThrow('Choose at least one server or bucket.');
  });
});

describe('group users', () => {
  it('refuses to grant a bit the caller lacks, before asking the server', async () => {
    const { ctx, http } = context('/groups/g-front/users', () => ({}), Perm.Membership | Perm.ManageUsers);
    const { run } = await runLine('adduser Frontier mod@x.local control-servers,edit-group', ctx);
    await expect(run()).rejects.toThrow(
      'You cannot grant what you do not hold: control servers, edit group.',
    );
    expect(http).not.toHaveBeenCalled();
  });

  it('looks the user up, then adds them with the bits named', async () => {
    const { ctx, http } = context('/groups/g-front/users', (_m, path) =>
      path === '/sentinel/userLookup'
        ? { userId: 'u-mod', usernameFull: 'Moderator#abcd1234' }
        : { created: [{}] },
    );
    const { run } = await runLine('adduser Frontier mod@x.local control-servers', ctx);
    expect((await run())?.message).toBe('Moderator#abcd1234 joined Frontier with control servers.');
    expect(http.mock.calls[1][2]?.body).toEqual({
      groupId: 'g-front',
      userId: 'u-mod',
      permissions: Perm.Membership | Perm.ControlServices,
    });
  });

  it('shows the server’s refusal of an anonymous account beside the user field', async () => {
    const { ctx } = context('/groups/g-front/users', () => {
      throw new ApiError('Anonymous users cannot be added to a group.', 'anonymousUser', 400);
    });
    const { run } = await runLine('adduser Frontier anon@x.local', ctx);
    await expect(run()).rejects.toMatchObject({
      field: 'user',
      message: 'Anonymous users cannot be added to a group.',
    });
  });
});

describe('what a group may do on one of its servers', () => {
  const link = { groupServiceId: 'gs-1', groupId: 'g-front', serviceId: 's-island', permissionsMask: 16383 };

  it('sets the group’s own mask on the server, with an undo that puts the old one back', async () => {
    const { ctx, http } = context('/groups/g-front/services', (method) =>
      method === 'GET' ? { results: [link], totalResults: 1 } : link,
    );
    const { run } = await runLine(
      'grant Frontier --server "Island PvE" --permissions control-servers,manage-bans',
      ctx,
    );
    const result = await run();
    expect(result?.message).toBe('What Frontier may do on Island PvE: control servers, manage bans.');
    expect(http.mock.calls.map((c) => c.slice(0, 2))).toEqual([
      ['GET', '/sentinel/groupServices'],
      ['PATCH', '/sentinel/groupServices/gs-1'],
    ]);
    expect(http.mock.calls[1][2]?.body).toEqual({
      permissionsMask: Perm.Membership | Perm.ControlServices | Perm.ManageBans,
    });
    await result?.undo?.();
    expect(http.mock.calls[2][2]?.body).toEqual({ permissionsMask: 16383 });
  });

  it('takes the server from the row chosen on the services tab', async () => {
    const { ctx, http } = context('/groups/g-front/services', (method) =>
      method === 'GET' ? { results: [link], totalResults: 1 } : link,
    );
    ctx.selection = { kind: 'server', ids: ['s-island'], labels: { 's-island': 'Island PvE' } };
    const { run } = await runLine('grant Frontier --permissions none', ctx);
    expect((await run())?.message).toBe('What Frontier may do on Island PvE: membership only.');
    expect(http.mock.calls[0][2]).toMatchObject({ query: { groupId: 'g-front', serviceId: 's-island' } });
  });

  it('needs manage servers on the group, and the API’s refusal lands beside the permissions', async () => {
    const members = context('/groups/g-front/services', () => ({}));
    // Share servers on the server, but only manage users in the group.
    members.ctx.permissions = (of) =>
      of?.kind === 'server' ? Perm.Membership | Perm.ShareServices : Perm.Membership | Perm.ManageUsers;
    const line = 'grant Frontier --server "Island PvE" --permissions control-servers';
    const { run } = await runLine(line, members.ctx);
    await expect(run()).rejects.toThrow(`Frontier: ${Msg.forbidden} (manage servers).`);
    expect(members.http).not.toHaveBeenCalled();

    const refused = context('/groups/g-front/services', (method) => {
      if (method === 'GET') return { results: [link], totalResults: 1 };
      throw new ApiError('permissionsMask must include Membership (1).', 'validation', 400, {
        field: 'permissionsMask',
      });
    });
    const again = await runLine(line, refused.ctx);
    await expect(again.run()).rejects.toMatchObject({
      field: 'permissions',
      message: 'permissionsMask must include Membership (1).',
    });
  });

  it('names a server that is not in the group, and refuses a member and a server at once', async () => {
    const { ctx } = context('/groups/g-front/services', () => ({ results: [], totalResults: 0 }));
    const { run } = await runLine('grant Frontier --server Aberration --permissions none', ctx);
    await expect(run()).rejects.toThrow('Aberration is not in Frontier.');
    const both = await runLine('grant Frontier mod@x.local none --server Aberration', ctx);
    await expect(both.run()).rejects.toThrow('Name a member or one of the group’s servers, not both.');
  });
});

describe('group rules', () => {
  it('names the bits by slug, always with membership', () => {
    expect(maskOfSlugs(['control-servers', 'manage-users'])).toBe(1 | 2 | 1024);
    expect(maskOfSlugs(['none'])).toBe(1);
  });
  it('finds bits beyond the granter and effective bits on a server', () => {
    expect(bitsBeyond(1 | 2, 1 | 2 | 8)).toEqual(['EditGroup']);
    expect(effectiveBits(1 | 2 | 32, 1 | 2)).toBe(3);
    expect(effectiveBits(9007199254740991, 1 | 32)).toBe(33);
  });
  it('makes link codes of the alphabet and reads the link state', () => {
    for (let i = 0; i < 50; i++) expect(randomLinkCode()).toMatch(LINK_CODE);
    expect(communityLinkState({ discordLinkCode: null, discordGuildId: null })).toBe('notLinked');
    expect(communityLinkState({ discordLinkCode: 'ACDEF3', discordGuildId: null })).toBe('codeRequested');
    expect(communityLinkState({ discordLinkCode: null, discordGuildId: '1' })).toBe('linked');
  });
});

describe('attached scripts', () => {
  const restarter: EntityRef = { kind: 'script', id: 'sc-1', label: 'Restarter' };
  const answer: Answer = (method, path) => {
    if (path === '/sentinel/serviceScripts' && method === 'GET')
      return { results: [{ serviceScriptId: 'a-1', revisionId: null }] };
    if (path.endsWith('/revisions'))
      return {
        revisions: [
          { revisionId: 'abcdef12-0000-4000-8000-000000000000', dateCreated: 1_700_000_000 },
          { revisionId: 'abc99999-0000-4000-8000-000000000000', dateCreated: 1_690_000_000 },
        ],
      };
    return true;
  };

  it('locks the server’s attachment to the version named by its first characters', async () => {
    const { ctx, http } = context('/servers/s-island/scripts', answer);
    const r = await execute(
      registry.get('script.setVersion')!,
      { script: restarter, version: 'abcdef' },
      ctx,
    );
    expect(r?.message).toBe('Restarter on s-island is locked to version abcdef12.');
    expect(http.mock.calls.at(-1)?.slice(0, 2)).toEqual(['PATCH', '/sentinel/serviceScripts/a-1']);
    expect(http.mock.calls.at(-1)?.[2]?.body).toEqual({ revisionId: 'abcdef12-0000-4000-8000-000000000000' });
    await expect(
      execute(registry.get('script.setVersion')!, { script: restarter, version: 'abc' }, ctx),
    ).rejects.toThrow('Several versions match "abc".');
  });

  it('detaches it from the server in view', async () => {
    const { ctx, http } = context('/servers/s-island/scripts', answer);
    const r = await execute(registry.get('script.detach')!, { script: restarter }, ctx);
    expect(r?.message).toBe('Restarter was detached from s-island.');
    expect(http.mock.calls.at(-1)?.slice(0, 2)).toEqual(['DELETE', '/sentinel/serviceScripts/a-1']);
  });
});
