// Group and server bans: every validation and error code, permissions, the `expired` filter, the
// game commands a ban sends to connected servers, and bans.txt export and import.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BanMsg } from '../../src/domain/bans.ts';
import { PIE_CHARACTER_ID } from '../../src/domain/constants.ts';
import { BAN_IMPORT_MAX } from '../../src/domain/limits.ts';
import { Msg } from '../../src/domain/messages.ts';
import { BAN_BATCH } from '../../src/server/model/ban.ts';
import { call, recording, signIn, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
let owner: string;
let moderator: string;
const BOB = '33333333-3333-4333-8333-333333333333';
const BOB_EOS = '0002bbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const ANN = '44444444-4444-4444-8444-444444444444';
const ANN_EOS = '0002cccccccccccccccccccccccccccc';
const future = (days: number) => Math.floor(Date.now() / 1000) + days * 86400;

beforeAll(async () => {
  t = await startTestServer();
  owner = (await signIn(t.base)).access_token;
  moderator = (await signIn(t.base, t.demo.moderator.email, 'palisade-demo')).access_token;
  await t.server.db.exec(`
    INSERT INTO players (player_id, name) VALUES ('${BOB}', 'Bob Griefer'), ('${ANN}', 'Ann Archer');
    INSERT INTO player_identifiers (player_id, provider, identifier) VALUES
      ('${BOB}', 'EOS', '${BOB_EOS}'), ('${ANN}', 'EOS', '${ANN_EOS}');
  `);
});
afterAll(() => t?.close());

const island = () => t.demo.servers[0].serviceId;
const scorched = () => t.demo.servers[1].serviceId;
const third = () => t.demo.servers[2].serviceId;

/** A fake game server on the link: it answers every command and remembers it. */
async function gameServer(accessKey: string) {
  const ws = new WebSocket(`${t.server.url.replace('http', 'ws')}/v4/sentinel/link`);
  const commands: string[] = [];
  let welcomed: () => void = () => {};
  const ready = new Promise<void>((r) => {
    welcomed = r;
  });
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString());
    if (f.type === 'welcome') welcomed();
    if (f.type === 'command') {
      commands.push(f.command.command);
      ws.send(JSON.stringify({ type: 'commandResult', seq: f.seq, ok: true, result: 'done' }));
    }
  });
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'hello', accessKey, protocol: 1 }));
  await ready;
  return { commands, close: () => ws.close() };
}

describe('ban validation and errors', () => {
  const ban = (body: Record<string, unknown>, token = owner, path = 'serviceBans') =>
    call(t.base, token, 'POST', `/sentinel/${path}`, { serviceId: island(), comments: 'griefing', ...body });

  it('answers each error code with the spec message', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ playerId: 'bob' }, 400, 'badPlayerId', Msg.banPlayerFormat],
      [{ playerId: PIE_CHARACTER_ID }, 400, 'pieCharacter', Msg.banPieCharacter],
      [{ playerId: '55555555-5555-4555-8555-555555555555' }, 404, 'playerNotFound', Msg.banPlayerNotFound],
      [{ playerId: '0002dddddddddddddddddddddddddddd' }, 404, 'eosIdUnknown', Msg.banEosUnknown],
      [{ playerId: BOB, comments: ' ' }, 400, 'validation', BanMsg.commentsRequired],
      [{ playerId: BOB, expiration: 1000 }, 400, 'validation', BanMsg.expiryPast],
    ];
    for (const [body, status, code, message] of cases) {
      const r = await ban(body);
      expect([r.status, r.body.code, r.body.message], JSON.stringify(body)).toEqual([status, code, message]);
    }
    expect((await ban({ playerId: undefined })).body.code).toBe('missingProperties');
  });

  it('refuses a duplicate, and a caller without the permission', async () => {
    const first = await ban({ playerId: BOB_EOS });
    expect(first.status).toBe(200);
    expect(first.body.created[0]).toMatchObject({
      playerId: BOB,
      playerName: 'Bob Griefer',
      expiration: null,
    });
    const again = await ban({ playerId: BOB });
    expect(again.body).toMatchObject({ code: 'duplicate', message: Msg.banDuplicate });

    // The moderator controls the group's servers (may ban there) but may not manage group bans,
    // and holds nothing on the third server.
    expect((await ban({ playerId: BOB, serviceId: scorched() }, moderator)).status).toBe(200);
    expect((await ban({ playerId: BOB, serviceId: third() }, moderator)).status).toBe(403);
    const group = await ban(
      { playerId: BOB, groupId: t.demo.groupId, serviceId: undefined },
      moderator,
      'groupBans',
    );
    expect(group.status).toBe(403);
    expect((await call(t.base, moderator, 'GET', `/sentinel/serviceBans?serviceId=${third()}`)).status).toBe(
      403,
    );
    expect((await call(t.base, owner, 'GET', '/sentinel/groupBans')).status).toBe(403);

    const id = first.body.created[0].serviceBanId;
    expect((await call(t.base, owner, 'DELETE', `/sentinel/serviceBans/${id}`)).status).toBe(204);
    const gone = await call(t.base, owner, 'DELETE', `/sentinel/serviceBans/${id}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'notFound']);
  });
});

describe('bans reach game servers', () => {
  it('a group ban sends banplayer to every connected server of the group, removal unbanplayer', async () => {
    const a = await gameServer(t.demo.servers[0].accessKey);
    const b = await gameServer(t.demo.servers[1].accessKey);
    const c = await gameServer(t.demo.servers[2].accessKey);
    try {
      const r = await call(t.base, owner, 'POST', '/sentinel/groupBans', {
        groupId: t.demo.groupId,
        playerId: ANN,
        comments: 'cheating',
        expiration: future(7),
      });
      expect(r.status).toBe(200);
      const created = r.body.created[0];
      expect(created).toMatchObject({
        groupName: 'Demo Cluster',
        playerAccounts: [{ provider: 'EOS', identifier: ANN_EOS, name: '' }],
        issuerUsername: 'Demo Admin',
      });
      await expect.poll(() => a.commands).toContain(`banplayer ${ANN_EOS}`);
      await expect.poll(() => b.commands).toContain(`banplayer ${ANN_EOS}`);
      expect(c.commands).toEqual([]);

      const txt = await fetch(`${t.base}/sentinel/services/${island()}/bans.txt`);
      expect(txt.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await txt.text()).toContain(`${ANN_EOS},${created.expiration}`);
      expect(await (await fetch(`${t.base}/sentinel/services/${third()}/bans.txt`)).text()).not.toContain(
        ANN_EOS,
      );
      expect(await (await fetch(`${t.base}/sentinel/groups/${t.demo.groupId}/bans.txt`)).text()).toContain(
        ANN_EOS,
      );

      const edited = await call(t.base, owner, 'PATCH', `/sentinel/groupBans/${created.groupBanId}`, {
        comments: 'cheating, confirmed',
        expiration: null,
      });
      expect(edited.body).toMatchObject({ comments: 'cheating, confirmed', expiration: null });

      await call(t.base, owner, 'DELETE', `/sentinel/groupBans/${created.groupBanId}`);
      await expect.poll(() => a.commands).toContain(`unbanplayer ${ANN_EOS}`);
      await expect.poll(() => b.commands).toContain(`unbanplayer ${ANN_EOS}`);
    } finally {
      a.close();
      b.close();
      c.close();
    }
  });

  it('filters expired bans (the original errors)', async () => {
    await t.server.db.query(
      `INSERT INTO service_bans (service_id, player_id, issuer_id, expiration, comments)
       VALUES ($1, $2, $3, now() - interval '1 day', 'old')`,
      [third(), ANN, t.demo.userId],
    );
    const expired = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/serviceBans?serviceId=${third()}&expired=true`,
    );
    expect(expired.body.results.map((b: { comments: string }) => b.comments)).toEqual(['old']);
    const active = await call(
      t.base,
      owner,
      'GET',
      `/sentinel/serviceBans?serviceId=${third()}&expired=false`,
    );
    expect(active.body.results.map((b: { comments: string }) => b.comments)).not.toContain('old');
  });
});

describe('bans.txt import', () => {
  const importList = (body: string, path = `services/${third()}`, token = owner) =>
    fetch(`${t.base}/sentinel/${path}/bans.txt`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body,
    });

  it('imports valid lines, records unseen players, skips bad and expired ones', async () => {
    const unseen = '0002eeeeeeeeeeeeeeeeeeeeeeeeeeee';
    const r = await importList(
      [`${BOB_EOS},Bob,${future(3)}`, 'not-an-id,Someone', `${unseen},Eve`, `${ANN_EOS},Ann,1000`, ''].join(
        '\n',
      ),
    );
    expect(r.status).toBe(204);
    const list = await call(t.base, owner, 'GET', `/sentinel/serviceBans?serviceId=${third()}&expired=false`);
    const names = list.body.results.map((b: { playerName: string; comments: string }) => [
      b.playerName,
      b.comments,
    ]);
    expect(names).toEqual(
      expect.arrayContaining([
        ['Bob Griefer', 'Imported ban for Bob'],
        ['Eve', 'Imported ban for Eve'],
      ]),
    );
    expect(names).toHaveLength(2);
    // The tables it wrote were vacuumed and analysed by the import itself, at its own priority,
    // not left to autovacuum at the consoles'.
    const tended = async () =>
      (
        await t.server.db.query<{ relname: string }>(
          `SELECT relname FROM pg_stat_user_tables
            WHERE schemaname = current_schema() AND last_vacuum IS NOT NULL AND last_analyze IS NOT NULL
              AND relname IN ('players', 'player_identifiers', 'service_bans') ORDER BY relname`,
        )
      ).rows.map((r) => r.relname);
    await expect.poll(tended).toEqual(['player_identifiers', 'players', 'service_bans']);
  });

  it('refuses a list with no valid lines, and callers without control permission', async () => {
    const none = await importList('garbage\n\n');
    expect(none.status).toBe(400);
    const body = await none.json();
    expect(body).toMatchObject({ code: 'noValidLines', message: BanMsg.noValidLines });
    expect(body.details[0]).toMatchObject({ line: 1, reason: Msg.banPlayerFormat });
    expect((await importList(BOB_EOS, `services/${third()}`, moderator)).status).toBe(403);
    expect((await importList(BOB_EOS, `groups/${t.demo.groupId}`, moderator)).status).toBe(204);
    const bad = await fetch(`${t.base}/sentinel/services/nope/bans.txt`);
    expect([bad.status, await bad.text()]).toEqual([400, "That's not a Beacon Sentinel Server ID."]);
  });

  const eos = (n: number) => `0002${n.toString(16).padStart(28, '0')}`;

  /**
   * The statements that inserted into group_bans while `fn` ran, in order, each as its transaction
   * and the first comment it wrote: counted by the database itself, since an import's statements
   * run in a process of its own.
   */
  async function bansInserts(fn: () => Promise<void>): Promise<{ xact: number; comment: string }[]> {
    const db = t.server.db;
    await db.exec(`
      CREATE TABLE bans_inserts (xact bigint NOT NULL, comment text, at serial);
      CREATE FUNCTION bans_inserted() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN INSERT INTO bans_inserts (xact, comment) SELECT txid_current(), min(comments) FROM added; RETURN NULL; END $$;
      CREATE TRIGGER bans_inserted AFTER INSERT ON group_bans REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION bans_inserted()`);
    try {
      await fn();
      return (
        await db.query<{ xact: number; comment: string }>(
          'SELECT xact, comment FROM bans_inserts ORDER BY at',
        )
      ).rows;
    } finally {
      await db.exec(
        'DROP TRIGGER bans_inserted ON group_bans; DROP FUNCTION bans_inserted; DROP TABLE bans_inserts',
      );
    }
  }

  it("imports one account's lists one at a time", async () => {
    const list = (who: string, first: number) =>
      Array.from({ length: BAN_BATCH + 5 }, (_, i) => `${eos(first + i)},${who} ${i}`).join('\n');
    const inserts = await bansInserts(async () => {
      const both = await Promise.all([
        importList(list('Early', 0xe00000), `groups/${t.demo.groupId}`),
        importList(list('Later', 0xe10000), `groups/${t.demo.groupId}`),
      ]);
      expect(both.map((r) => r.status)).toEqual([204, 204]);
    });
    // Whichever reached the server first: its two batches, then the other's.
    const lists = inserts.map((r) => r.comment.replace(/^Imported ban for (\w+).*$/, '$1'));
    expect([lists, lists.toReversed()]).toContainEqual(['Early', 'Early', 'Later', 'Later']);
  });

  it('stores a list of several batches a statement and a transaction a batch, known and unseen players alike', async () => {
    const n = 3 * BAN_BATCH + 1;
    const lines = Array.from({ length: n }, (_, i) => `${eos(0xb00000 + i)},Raider ${i}`);
    // One of them already known, under its name.
    lines[17] = `${BOB_EOS},Bob`;
    let ran: string[] = [];
    const inserts = await bansInserts(async () => {
      ran = await recording(t.server.db, async () => {
        expect((await importList(lines.join('\n'), `groups/${t.demo.groupId}`)).status).toBe(204);
      });
    });
    // One statement a batch for the players and their bans, each committed on its own: a
    // transaction held open across the paced batches (40 s and more) would hold back PostgreSQL's
    // clean-up of every table, and show nobody anything until the end.
    const batches = Math.ceil(n / BAN_BATCH);
    expect(inserts).toHaveLength(batches);
    expect(new Set(inserts.map((r) => r.xact)).size).toBe(batches);
    // On the server's thread, the game commands' look-up, a statement a batch; the request's own
    // (its caller, the permission, the rate limit, the activity line) besides. The server's timers
    // (the event queue, alert deliveries, RCON polling) run meanwhile, more often the slower the
    // machine: not counted.
    const timers = /service_event_queue|alert_deliveries|^\s*WITH rcon AS/;
    expect(ran.filter((q) => !timers.test(q)).length).toBeLessThanOrEqual(batches + 10);
    // The bans themselves were stored on the import's own thread and connection.
    expect(ran.filter((q) => q.includes('INSERT INTO group_bans'))).toEqual([]);
    // Bob was banned in the group before: his ban stays as it was, the others are new.
    const { rows } = await t.server.db.query<{ n: number; unseen: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE p.name LIKE 'Raider %')::int AS unseen
         FROM group_bans gb JOIN players p ON p.player_id = gb.player_id
         JOIN player_identifiers i ON i.player_id = p.player_id AND i.provider = 'EOS'
        WHERE gb.group_id = $1 AND i.identifier = ANY($2::text[])`,
      [t.demo.groupId, lines.map((l) => l.split(',')[0])],
    );
    expect(rows[0]).toEqual({ n, unseen: n - 1 });
    const raider = await t.server.db.query<{ name: string }>(
      `SELECT p.name FROM player_identifiers i JOIN players p ON p.player_id = i.player_id
        WHERE i.provider = 'EOS' AND i.identifier = $1`,
      [eos(0xb00000 + 5)],
    );
    expect(raider.rows).toEqual([{ name: 'Raider 5' }]);
  });

  it('refuses a list past the cap whole, saying how to import it', async () => {
    const lines = Array.from({ length: BAN_IMPORT_MAX + 1 }, (_, i) => `${eos(0xc00000 + i)},X`);
    const r = await importList(lines.join('\n'));
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      code: 'tooManyBans',
      message: BanMsg.listTooLong(BAN_IMPORT_MAX + 1),
    });
    const { rows } = await t.server.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM player_identifiers WHERE identifier = $1',
      [eos(0xc00000)],
    );
    expect(rows[0]!.n).toBe(0);
  });
});
