// What a game server's connection does to the database, whichever way it connects (the link or
// RCON): events stored once under their key with their side effects, and the connect and
// disconnect lines with the reconnect grace of SENTINEL-API §6.

import { channelFor, type LogMessage, RealtimeEvent } from '../../domain/api.ts';
import type { ServerContext } from '../context.ts';
import { uuidv7 } from '../crypto.ts';
import type { Db, Queryable } from '../db/db.ts';
import { logColumns, publishLogMessage } from '../model/logMessage.ts';
import { groupsOf, publishServiceChanged } from '../model/service.ts';
import {
  applyGameEvent,
  closeServiceSessions,
  type GameEvent,
  lockPlayersOf,
  touchesWorld,
} from '../model/world.ts';

/**
 * What makes an event the same event when it arrives twice: the link's sequence number, or the
 * key the RCON connector gave the line when it read it. Service lines have neither.
 */
export type EventKey = { seq: number } | { rconKey: string } | null;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One event to store under its key. */
export interface KeyedEvent {
  event: GameEvent;
  key: EventKey;
}

/**
 * A chat line read over RCON names its speaker by the id the game printed (`eosId` or `steamId`),
 * not by player id: the statement that stores it adds their player id, so the line shows on
 * their page and group chat can relay it, at no round trip of its own. The mod's chat carries the
 * player id already.
 */
const WITH_SPEAKER = `CASE WHEN l.event_name = 'chat' AND NOT l.metadata ? 'playerId'
         AND (l.metadata ? 'eosId' OR l.metadata ? 'steamId')
       THEN l.metadata || coalesce(
         (SELECT jsonb_build_object('playerId', pi.player_id) FROM player_identifiers pi
           WHERE (pi.provider = 'EOS' AND pi.identifier = lower(l.metadata->>'eosId'))
              OR (pi.provider = 'Steam' AND pi.identifier = l.metadata->>'steamId')
           LIMIT 1), '{}'::jsonb)
       ELSE l.metadata END`;

/** An event to store and the server it came from, for a statement that writes several servers' lines. */
export interface ServiceEvent extends KeyedEvent {
  serviceId: string;
}

/**
 * Writes the lines in one statement and returns each as the log list shows it, ready to publish
 * without reading it again. With `skipStored`, a line whose key a stored line carries is left out
 * rather than refused, and its place holds null.
 */
async function insertLines(
  tx: Queryable,
  lines: ServiceEvent[],
  skipStored = false,
): Promise<(LogMessage | null)[]> {
  if (lines.length === 0) return [];
  const column = <T>(f: (line: ServiceEvent) => T) => lines.map(f);
  const ids = column(({ event }) => uuidv7(Math.floor(event.time * 1000)));
  const { rows } = await tx.query<LogMessage>(
    `WITH m AS (
       INSERT INTO log_messages (message_id, service_id, link_seq, rcon_key, event_name, type, level, time, metadata,
                                 message, analyzer_status)
       SELECT id, sid, seq, rcon_key, event_name, type, level, to_timestamp(t), ${WITH_SPEAKER}, message, status
         FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::uuid[], $5::text[], $6::text[], $7::text[],
                     $8::float8[], $9::jsonb[], $10::text[], $11::text[])
           AS l(id, sid, seq, rcon_key, event_name, type, level, t, metadata, message, status)
       ${skipStored ? 'ON CONFLICT DO NOTHING' : ''}
       RETURNING *)
     SELECT ${logColumns("'en'")} FROM m JOIN services s ON s.service_id = m.service_id`,
    [
      ids,
      column(({ serviceId }) => serviceId),
      column(({ key }) => (key && 'seq' in key ? key.seq : null)),
      column(({ key }) => (key && 'rconKey' in key ? key.rconKey : null)),
      column(({ event }) => event.eventName),
      column(({ event }) => event.type),
      column(({ event }) => event.level),
      column(({ event }) => event.time),
      column(({ event }) => JSON.stringify(event.metadata)),
      column(({ event }) => event.message),
      column(({ event }) =>
        event.eventName === 'chat' ? (isObject(event.metadata.analysis) ? 'Analyzed' : 'Pending') : 'Skipped',
      ),
    ],
    skipStored ? 'log-insert-new' : 'log-insert',
  );
  const written = new Map(rows.map((row) => [row.messageId, row]));
  return ids.map((id) => written.get(id) ?? null);
}

/** insertLines for the lines of one server. */
export const insertLogs = (
  tx: Queryable,
  serviceId: string,
  lines: KeyedEvent[],
  skipStored = false,
): Promise<(LogMessage | null)[]> =>
  insertLines(
    tx,
    lines.map((line) => ({ ...line, serviceId })),
    skipStored,
  );

export const insertLog = async (tx: Queryable, serviceId: string, event: GameEvent, key: EventKey) =>
  (await insertLogs(tx, serviceId, [{ event, key }]))[0]!.messageId;

export const serviceEvent = (eventName: string, message: string): GameEvent => ({
  eventName,
  time: Date.now() / 1000,
  type: 'Service',
  level: 'Notice',
  message,
  metadata: {},
});

/** What a connect or disconnect did to the log: a line to publish, or an outage's line taken away. */
export type LogChange = { added: string } | { removed: string };

/**
 * Closes the outage's sessions (at `lastSeen`, epoch seconds, when given) and writes its line,
 * named on the service for a quick reconnect.
 */
export async function recordDisconnect(
  tx: Queryable,
  serviceId: string,
  lastSeen?: number,
): Promise<LogChange> {
  await closeServiceSessions(tx, serviceId, lastSeen);
  const added = await insertLog(
    tx,
    serviceId,
    serviceEvent('serverDisconnected', 'The server disconnected.'),
    null,
  );
  await tx.query('UPDATE services SET outage_message_id = $2 WHERE service_id = $1', [serviceId, added]);
  return { added };
}

/**
 * Marks the service connected to `nodeId`. Back within `graceMs` of a recorded disconnect, the
 * outage leaves no trace: its line is deleted and no connect line is written.
 */
export async function recordConnect(
  tx: Queryable,
  serviceId: string,
  nodeId: string,
  graceMs: number,
): Promise<LogChange | null> {
  // FOR UPDATE waits for a disconnect another process is committing, and reads what it wrote.
  const { rows } = await tx.query<{ outage: string | null; recent: boolean }>(
    `SELECT outage_message_id AS outage,
            NOT is_connected AND connection_change_time > now() - $2::float8 * interval '1 millisecond' AS recent
       FROM services WHERE service_id = $1 FOR UPDATE`,
    [serviceId, graceMs],
  );
  if (rows.length === 0) return null;
  await tx.query(
    `UPDATE services SET is_connected = true, connected_to = $2, connection_change_time = now(),
            outage_message_id = NULL
      WHERE service_id = $1`,
    [serviceId, nodeId],
  );
  const { outage, recent } = rows[0];
  if (outage && recent) {
    await tx.query('DELETE FROM log_messages WHERE message_id = $1 AND service_id = $2', [outage, serviceId]);
    return { removed: outage };
  }
  return {
    added: await insertLog(tx, serviceId, serviceEvent('serverConnected', 'The server connected.'), null),
  };
}

/** Marks the service disconnected, unless another process holds its connection now. */
export async function recordDisconnectBy(
  tx: Queryable,
  serviceId: string,
  nodeId: string,
  lastSeen?: number,
): Promise<LogChange | null> {
  const { rows } = await tx.query(
    `UPDATE services SET is_connected = false, connected_to = NULL, connection_change_time = now()
      WHERE service_id = $1 AND connected_to = $2 RETURNING 1`,
    [serviceId, nodeId],
  );
  return rows.length === 0 ? null : recordDisconnect(tx, serviceId, lastSeen);
}

/** List views on a removed line's channels are told which line went away. */
export async function publishLogChange(
  ctx: ServerContext,
  serviceId: string,
  change: LogChange | null,
): Promise<void> {
  if (!change) return;
  if ('added' in change) await publishLogMessage(ctx, change.added);
  else
    await ctx.publisher.publish(
      [
        channelFor('services', serviceId),
        ...(await groupsOf(ctx, serviceId)).map((g) => channelFor('groups', g)),
      ],
      RealtimeEvent.logMessageRemoved,
      { messageId: change.removed, serviceId },
    );
  await publishServiceChanged(ctx, serviceId);
}

export async function keySeen(tx: Queryable, serviceId: string, key: EventKey): Promise<boolean> {
  return (await keysSeen(tx, serviceId, [key]))[0];
}

/** Which of the keys a line of the service already carries: one read per kind of key. */
async function keysSeen(tx: Queryable, serviceId: string, keys: EventKey[]): Promise<boolean[]> {
  const seen = new Set<string>();
  for (const [column, values] of [
    ['link_seq', keys.flatMap((k) => (k && 'seq' in k ? [String(k.seq)] : []))],
    ['rcon_key', keys.flatMap((k) => (k && 'rconKey' in k ? [k.rconKey] : []))],
  ] as const) {
    if (values.length === 0) continue;
    // Each kind apart: under one OR the planner read every keyed line of the service.
    const { rows } = await tx.query<{ key: string }>(
      `SELECT ${column}::text AS key FROM log_messages WHERE service_id = $1 AND ${column} = ANY($2)`,
      [serviceId, values],
    );
    for (const r of rows) seen.add(`${column}:${r.key}`);
  }
  return keys.map((k) => !!k && seen.has('seq' in k ? `link_seq:${k.seq}` : `rcon_key:${k.rconKey}`));
}

/** A unique (service, key) violation: another process stored the same event first. */
const isDuplicate = (e: unknown) => (e as { code?: unknown }).code === '23505';
/**
 * A deadlock with another writer storing the same lines in another order (two processes holding
 * one server in turn): PostgreSQL rolled this store back whole.
 */
const isDeadlock = (e: unknown) => (e as { code?: unknown }).code === '40P01';
/** Tries of one event's store that lost a deadlock before its error is the caller's. */
const DEADLOCK_TRIES = 3;

/** An event's side effect the tables refused, in a store that tried the batch's effects together. */
class EffectRefused extends Error {}

/**
 * The event's side effects, and its metadata as the line stores it. Side effects the tables refuse
 * (a survivor number taken twice, a value out of range) must not cost the event itself, or the
 * game's queue would stall on it forever. A store first tries its events' effects `together`, with
 * no savepoint: a savepoint is a round trip and a subtransaction per event, and a refusal is rare.
 * One refused ends that try (EffectRefused), and the store is made again with each event's effects
 * behind a savepoint of its own, so that only the refused ones are skipped.
 */
async function applySafely(tx: Queryable, serviceId: string, { event, key }: KeyedEvent, together: boolean) {
  // A chat line in a batch with a join writes nothing but itself: nothing to undo, no round trip.
  if (!touchesWorld(event)) return event.metadata;
  if (together)
    return applyGameEvent(tx, serviceId, event).catch((e) => {
      // A deadlock is no fault of the event: the whole store is tried again, effects and all.
      throw isDeadlock(e) ? e : new EffectRefused(e.message);
    });
  await tx.exec('SAVEPOINT world');
  return applyGameEvent(tx, serviceId, event).catch(async (e) => {
    await tx.exec('ROLLBACK TO SAVEPOINT world');
    if (isDeadlock(e)) throw e;
    console.error(
      `${event.eventName} ${JSON.stringify(key)} of ${serviceId}: side effects skipped:`,
      e.message,
    );
    return event.metadata;
  });
}

/** How a store is tried: see storeGameEvents and applySafely. */
interface StoreTry {
  fresh: boolean;
  tries: number;
  together: boolean;
}

/**
 * Stores events in order, each once under its key with its side effects; returns each one's line,
 * null for an event already stored. Lines that write nothing but themselves (chat and the game's
 * own log, most of what a game says) take one statement for the lot; others one transaction, one
 * read of the keys and one insert for the lot, not all three each. `fresh` says no store of these
 * keys was ever tried, so none is read: were one stored after all, its unique key refuses the
 * insert, and the events are stored one at a time below as for two writers.
 */
export const storeGameEvents = (
  db: Db,
  serviceId: string,
  events: KeyedEvent[],
  fresh = false,
): Promise<(LogMessage | null)[]> => store(db, serviceId, events, { fresh, tries: 1, together: true });

async function store(
  db: Db,
  serviceId: string,
  events: KeyedEvent[],
  how: StoreTry,
): Promise<(LogMessage | null)[]> {
  // One statement stores them all or none, and leaves out a line already stored.
  if (!events.some(({ event }) => touchesWorld(event))) return insertLogs(db, serviceId, events, true);
  try {
    return await db.transaction(async (tx) => {
      const seen = how.fresh
        ? events.map(() => false)
        : await keysSeen(
            tx,
            serviceId,
            events.map((e) => e.key),
          );
      await lockPlayersOf(
        tx,
        events.filter((_, i) => !seen[i]).map((e) => e.event),
      );
      const unstored: KeyedEvent[] = [];
      for (const [i, e] of events.entries())
        if (!seen[i])
          unstored.push({
            key: e.key,
            event: { ...e.event, metadata: await applySafely(tx, serviceId, e, how.together) },
          });
      const lines = await insertLogs(tx, serviceId, unstored);
      return seen.map((s) => (s ? null : lines.shift()!));
    });
  } catch (e) {
    // The rollback undid every effect of the try: made again, the refused ones are skipped.
    if (e instanceof EffectRefused) return store(db, serviceId, events, { ...how, together: false });
    if (!isDuplicate(e) && !isDeadlock(e)) throw e;
    // Another process stored one of them first, or the two deadlocked storing them in another
    // order; the rollback undid this copy's side effects. One at a time, each in a transaction of
    // its own, the others are stored and one already stored is skipped.
    if (events.length === 1) {
      if (isDuplicate(e)) return [null];
      if (how.tries >= DEADLOCK_TRIES) throw e;
      return store(db, serviceId, events, { ...how, tries: how.tries + 1 });
    }
    const stored: (LogMessage | null)[] = [];
    for (const one of events)
      stored.push(...(await store(db, serviceId, [one], { ...how, fresh: false, tries: 1 })));
    return stored;
  }
}

/** A server's events waiting to be stored with other servers' (groupStore). */
interface Waiting {
  serviceId: string;
  events: KeyedEvent[];
  resolve(lines: (LogMessage | null)[]): void;
  reject(e: unknown): void;
}

/** How a batch is handed to groupStore. */
export interface GroupedStore {
  /** No store of its keys was ever tried (storeGameEvents). */
  fresh: boolean;
  /**
   * Whether it waits for other servers' batches when none is being stored: not a server's next
   * batch of a backlog, which would otherwise wait that long each.
   */
  gather: boolean;
}

/** Events a group holds at most, so that the batches arriving behind it wait for a short one. */
const GROUP_EVENTS = 200;
/**
 * How long a batch that finds nothing being stored waits for others: 500 servers polled every
 * 2 s hand over a batch every few milliseconds, each alone were nothing gathered. A chat line
 * reaches the screens this much later, against the poll interval it already waits.
 */
const GATHER_MS = 100;

/**
 * storeGameEvents for a process holding many servers (RCON): the batches of several servers go
 * together, one transaction for all and their lines in one statement. A batch that finds none
 * being stored waits GATHER_MS for others; those that arrive while a group is being stored go in
 * the next. A statement costs the database more than the lines it writes: one line a statement
 * took 0.66 ms, ten 0.13 ms a line, twenty-five 0.09 ms. One group is stored at a time, so the
 * polling of hundreds of servers takes one database connection and leaves the rest to the
 * consoles.
 *
 * Only batches never tried before are grouped (`fresh`): one of them, or a side effect of one,
 * that is refused, or a deadlock, undoes the whole group, and each batch is then stored on its
 * own (storeGameEvents), which sorts out which.
 */
export function groupStore(
  db: Db,
): (serviceId: string, events: KeyedEvent[], how: GroupedStore) => Promise<(LogMessage | null)[]> {
  const waiting: Waiting[] = [];
  let storing = false;
  const alone = async (w: Waiting) => {
    try {
      w.resolve(await storeGameEvents(db, w.serviceId, w.events, true));
    } catch (e) {
      w.reject(e);
    }
  };
  async function drain() {
    while (waiting.length > 0) {
      const group = [waiting.shift()!];
      let size = group[0].events.length;
      while (waiting.length > 0 && size + waiting[0].events.length <= GROUP_EVENTS) {
        size += waiting[0].events.length;
        group.push(waiting.shift()!);
      }
      if (group.length === 1) {
        await alone(group[0]);
        continue;
      }
      try {
        const lines = await storeGroup(db, group);
        for (const [i, w] of group.entries()) w.resolve(lines[i]!);
      } catch {
        for (const w of group) await alone(w);
      }
    }
    storing = false;
  }
  return (serviceId, events, { fresh, gather }) => {
    if (!fresh) return storeGameEvents(db, serviceId, events);
    return new Promise((resolve, reject) => {
      waiting.push({ serviceId, events, resolve, reject });
      if (!storing) {
        storing = true;
        if (gather) setTimeout(drain, GATHER_MS);
        else queueMicrotask(drain);
      }
    });
  };
}

/** Stores a group's batches in one transaction, its lines in one statement; each batch's lines. */
function storeGroup(db: Db, group: Waiting[]): Promise<(LogMessage | null)[][]> {
  return db.transaction(async (tx) => {
    const events = group.flatMap((w) => w.events.map((e) => ({ ...e, serviceId: w.serviceId })));
    await lockPlayersOf(
      tx,
      events.map((e) => e.event),
    );
    const lines: ServiceEvent[] = [];
    for (const e of events)
      lines.push({ ...e, event: { ...e.event, metadata: await applySafely(tx, e.serviceId, e, true) } });
    const stored = await insertLines(tx, lines);
    return group.map((w) => stored.splice(0, w.events.length));
  });
}
