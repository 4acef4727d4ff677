// The RCON pieces that need no network: the Source RCON codec, reading ARK's answers, what each
// game command becomes (or why it is refused), and the reasons a connection failure is shown with.

import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../commands/index.ts';
import { RconError, type RconFailureCause } from '../../src/server/game/rcon/client.ts';
import {
  encodePacket,
  PacketReader,
  PacketType,
  RconProtocolError,
} from '../../src/server/game/rcon/codec.ts';
import { rconFailure, reconnectDelay } from '../../src/server/game/rcon/connector.ts';
import {
  chatFeedEvent,
  gameLogEvent,
  kindOf,
  parseChatFeed,
  parseGameLog,
  parseListPlayers,
  readChatLine,
  saysNothing,
} from '../../src/server/game/rcon/parse.ts';
import { toRconCommand } from '../../src/server/game/rcon/translate.ts';
import { gameLogStamp } from '../../src/sim/rcon.ts';
import { SECRET_MASK, withoutSecrets } from '../../src/web/terminal/parse.ts';

const EOS = '0002aaaabbbbccccddddeeeeffff0000';

describe('the Source RCON codec', () => {
  it('round-trips a packet byte for byte as the protocol lays it out', () => {
    const bytes = encodePacket({ id: 7, type: PacketType.execCommand, body: 'ListPlayers' });
    expect(bytes.readInt32LE(0)).toBe(bytes.length - 4);
    expect(bytes.readInt32LE(4)).toBe(7);
    expect(bytes.readInt32LE(8)).toBe(2);
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0, 0]));
    expect(new PacketReader().push(bytes)).toEqual([{ id: 7, type: 2, payload: Buffer.from('ListPlayers') }]);
  });

  it('reassembles packets split and joined across chunks, UTF-8 included', () => {
    const a = encodePacket({ id: 1, type: 0, body: 'Grüße 🦖' });
    const b = encodePacket({ id: -1, type: 2, body: '' });
    const stream = Buffer.concat([a, b]);
    const reader = new PacketReader();
    const out = [];
    for (let i = 0; i < stream.length; i += 3) out.push(...reader.push(stream.subarray(i, i + 3)));
    expect(out).toEqual([
      { id: 1, type: 0, payload: Buffer.from('Grüße 🦖') },
      { id: -1, type: 2, payload: Buffer.alloc(0) },
    ]);
  });

  it('refuses a size no packet can have rather than buffering forever', () => {
    const bad = Buffer.alloc(4);
    bad.writeInt32LE(10_000_000, 0);
    expect(() => new PacketReader().push(bad)).toThrow(RconProtocolError);
    bad.writeInt32LE(3, 0);
    expect(() => new PacketReader().push(bad)).toThrow(RconProtocolError);
  });
});

describe("reading ARK's answers", () => {
  it('ListPlayers: EOS ids (Ascended) and SteamID64 (Evolved), names with commas and dots', () => {
    expect(parseListPlayers('No Players Connected')).toEqual([]);
    expect(
      parseListPlayers(
        `0. Rex, the Tamer, ${EOS.toUpperCase()}\n1. Dr. Bones Jr, ${EOS.replace('0000', '1111')}\n\n`,
      ),
    ).toEqual([
      { name: 'Rex, the Tamer', gameId: EOS, provider: 'EOS' },
      { name: 'Dr. Bones Jr', gameId: EOS.replace('0000', '1111'), provider: 'EOS' },
    ]);
    const evolved = parseListPlayers('0. Steve, 76561198060363401\n1. Zoë, Ünïcode, 76561197995589012\n');
    expect(evolved).toEqual([
      { name: 'Steve', gameId: '76561198060363401', provider: 'Steam' },
      { name: 'Zoë, Ünïcode', gameId: '76561197995589012', provider: 'Steam' },
    ]);
    expect(kindOf(evolved)).toBe('evolved');
    expect(kindOf(parseListPlayers(`0. A, ${EOS}`))).toBe('ascended');
    expect(kindOf([])).toBeNull();
    // Neither id: not a player line.
    expect(parseListPlayers('0. Nobody, 12345')).toEqual([]);
  });

  it('GetChat: players, the console, admin commands, tribe logs, and nothing said', () => {
    expect(parseChatFeed('Server received, But no response!! \n ')).toEqual([]);
    expect(parseChatFeed('Bob (Bobby): hi: there\nSERVER: restart soon\n')).toEqual([
      { kind: 'chat', sender: 'Bob', character: 'Bobby', message: 'hi: there' },
      { kind: 'server', message: 'restart soon' },
    ]);
    const fromConsole = chatFeedEvent({ kind: 'server', message: 'restart soon' }, []);
    expect(fromConsole.metadata).toMatchObject({ source: 'WebService', senderName: 'Server' });
    const fromPlayer = chatFeedEvent({ kind: 'chat', sender: 'Bob', character: 'Bobby', message: 'hi' }, [
      { name: 'Bob', gameId: EOS, provider: 'EOS' },
    ]);
    expect(fromPlayer).toMatchObject({
      eventName: 'chat',
      message: 'Bob: hi',
      metadata: { source: 'Game', eosId: EOS },
    });
    // Quoted verbatim from an Ascended server in ../shared/ARK-RCON.md.
    const asa = readChatLine(
      'AdminCmd: showAdminManager (PlayerName: AFP_Smokey, ARKID: 827627995, PlatformID: 000283de23c04f9f81016833cce8691d)',
    );
    expect(chatFeedEvent(asa, [])).toMatchObject({
      eventName: 'adminCommand',
      message: 'AFP_Smokey executed `showAdminManager`',
      metadata: {
        command: 'showAdminManager',
        eosId: '000283de23c04f9f81016833cce8691d',
        arkId: '827627995',
      },
    });
    const ase = readChatLine(
      'AdminCmd: ban 76561198060363401 (PlayerName: Ann (admin), ARKID: 5, SteamID: 76561197995589012)',
    );
    expect(chatFeedEvent(ase, []).metadata).toMatchObject({
      command: 'ban 76561198060363401',
      playerName: 'Ann (admin)',
      steamId: '76561197995589012',
    });
    const tribe = readChatLine(
      'Tribe Raiders, ID 1234567: Day 12, 04:05:06: <RichColor Color="1, 0, 0, 1">Bob was killed!</>)',
    );
    expect(chatFeedEvent(tribe, [])).toMatchObject({
      eventName: 'tribeLog',
      message: 'Raiders: Bob was killed!',
      metadata: { tribeName: 'Raiders', tribeNumber: 1234567, day: 12, clock: '04:05:06' },
    });
    expect(readChatLine('Bob [UniqueNetId:0002ab Platform:None] joined this ARK!')).toEqual({
      kind: 'other',
      text: 'Bob [UniqueNetId:0002ab Platform:None] joined this ARK!',
    });
  });

  it('a command that printed nothing says nothing, in any of its recorded forms', () => {
    for (const t of [
      'Server received, But no response!! \n ',
      'Server received, But no response!! ',
      '(no response)',
      '',
    ])
      expect(saysNothing(t)).toBe(true);
    expect(saysNothing('0. Bob, 76561198060363401')).toBe(false);
  });

  it('GetGameLog: the stamp becomes the line’s time, a line without one keeps now', () => {
    const at = Date.UTC(2026, 10, 24, 4, 15, 0) / 1000;
    expect(gameLogStamp(at)).toBe('2026.11.24_04.15.00');
    const [stamped, bare] = parseGameLog(`${gameLogStamp(at)}: Rex tamed a Raptor\nloose line`);
    expect(stamped).toEqual({ time: at, message: 'Rex tamed a Raptor' });
    expect(bare).toEqual({ time: null, message: 'loose line' });
    expect(gameLogEvent(stamped)).toMatchObject({
      eventName: 'customMessage',
      time: at,
      message: 'Rex tamed a Raptor',
    });
  });
});

describe('game commands over RCON', () => {
  it('become console commands on one line each', () => {
    expect(toRconCommand({ type: 'admin', command: `BanPlayer ${EOS}` })).toBe(`BanPlayer ${EOS}`);
    expect(toRconCommand({ type: 'admin', command: 'saveworld\nDoExit' })).toBe('saveworld DoExit');
    expect(toRconCommand({ type: 'chat', message: 'hello', senderName: 'Server' })).toBe('ServerChat hello');
    expect(toRconCommand({ type: 'chat', message: 'hello', senderName: 'Ann' })).toBe(
      'ServerChat Ann: hello',
    );
    expect(toRconCommand({ type: 'broadcast', message: 'Restart in 5' })).toBe('Broadcast Restart in 5');
  });

  it('refuses what only the game link can do, naming the connection kind', () => {
    for (const cmd of [
      { type: 'locate' },
      { type: 'restoreDino' },
      { type: 'giveItem' },
      { type: 'editDino' },
      { type: 'teleportCharacter' },
      { type: 'somethingNew' },
      { type: 'chat', message: 'psst', recipientType: 'Tribe', tribeId: 'x' },
    ]) {
      let caught: unknown;
      try {
        toRconCommand(cmd);
      } catch (e) {
        caught = e;
      }
      expect(caught).toMatchObject({ status: 409, code: 'rconUnsupported' });
      expect((caught as Error).message).toMatch(
        /connected over RCON, which cannot do it\. Nothing was sent\.$/,
      );
    }
  });
});

describe('why a connection failed', () => {
  const at = { host: 'ark.example.org', port: 27020 };
  const t = { commandMs: 10_000 };
  const fail = (cause: RconFailureCause) => new RconError(cause, cause);
  it.each([
    [
      fail('refused'),
      'RCON at ark.example.org:27020 refused the connection: check that the server runs with RCONEnabled=True and RCONPort=27020.',
    ],
    [
      fail('connectTimeout'),
      'RCON at ark.example.org:27020 did not answer the connection within 10 s: check the address, the port and the firewall.',
    ],
    [fail('loginTimeout'), /accepted the connection but did not answer the login within 10 s/],
    [fail('wrongPassword'), /^Wrong RCON password: the server refused it/],
    [fail('closedDuringLogin'), /closed the connection during the login: check the password/],
    [fail('closed'), 'RCON at ark.example.org:27020 closed the connection.'],
    [fail('replyTimeout'), /stopped answering/],
    [
      fail('replyTooLarge'),
      'RCON at ark.example.org:27020 sent a reply of more than 8 MiB, far more than a game sends: it was dropped, and the connection made again.',
    ],
    [fail('protocol'), /does not speak RCON: check the port/],
    [{ code: 'ENOTFOUND' }, 'Unknown host ark.example.org.'],
  ])('%o', (error, reason) => {
    expect(rconFailure(error, at, t)).toMatch(reason);
  });
  it('a server that may be starting is waited for, not blamed', () => {
    expect(rconFailure(fail('refused'), at, t, true)).toBe(
      'Waiting for RCON at ark.example.org:27020 (the connection is refused so far): a server that is starting opens it up to two minutes after start.',
    );
    expect(rconFailure(fail('wrongPassword'), at, t, true)).toMatch(/^Wrong RCON password/);
  });
});

describe('reconnect back-off', () => {
  const t = { backoffBaseMs: 1_000, backoffMaxMs: 30_000 };
  it('doubles per failed attempt up to the cap, jittered within the upper half', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => reconnectDelay(n, t, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(reconnectDelay(3, t, () => 0)).toBe(2_000);
  });
});

describe('a password typed on the console line', () => {
  const registry = createRegistry();
  it('is masked in what the history keeps, positional or flag, quoted or not', () => {
    expect(withoutSecrets('server.add "Far Isle" rcon 10.0.0.5 27020 hunter2', registry)).toBe(
      `server.add "Far Isle" rcon 10.0.0.5 27020 ${SECRET_MASK}`,
    );
    expect(withoutSecrets('addserver X rcon h 1 --password "two words"', registry)).toBe(
      `addserver X rcon h 1 --password ${SECRET_MASK}`,
    );
    // The password's own words, not an earlier word that happens to read the same.
    expect(withoutSecrets('addserver rcon rcon h 1 rcon', registry)).toBe(
      `addserver rcon rcon h 1 ${SECRET_MASK}`,
    );
    expect(withoutSecrets('addserver X rcon h 1 pw', registry, true)).toBe('addserver X rcon h 1 **');
    expect(withoutSecrets('chat "Island PvE" hunter2', registry)).toBe('chat "Island PvE" hunter2');
  });
});
