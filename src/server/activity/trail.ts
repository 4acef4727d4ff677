// The activity trail's one write path (docs/api.md "Activity trail"). The router runs every
// authenticated write under /sentinel inside a trail scope; the database handed to routes
// (trailedDb) adds the scope's entry to the end of whatever transaction the route commits, so a
// change and its entry commit or roll back together, and no route records anything itself.
// A write that changes nothing in the database (a chat line, a game command) gets its entry
// once it answers; a refused one (403), or one the game did not take (412, 502), gets its entry
// with that outcome; other failures (malformed input, unknown ids) leave none.

import { AsyncLocalStorage } from 'node:async_hooks';
import { ACTIVITY_EVENT } from '../../domain/activity.ts';
import { channelFor, userChannel } from '../../domain/api.ts';
import { UUID } from '../../domain/constants.ts';
import { uuidv7 } from '../crypto.ts';
import type { Connection, Db, Queryable } from '../db/db.ts';
import type { Caller } from '../http/auth.ts';
import { ApiException, fromDatabaseError } from '../http/errors.ts';
import { bitsOnEach } from '../model/permissions.ts';
import { LIMITS, type Publisher } from '../realtime/publisher.ts';
import { describeWrite } from './describe.ts';

interface Write {
  id: string;
  caller: Caller;
  method: string;
  route: string;
  params: Record<string, string>;
  body: unknown;
  /** Servers and groups the written rows belong to (noteRow), beyond what the request names. */
  serviceIds: Set<string>;
  groupIds: Set<string>;
  /** True once a committed transaction holds the entry. */
  recorded: boolean;
  /** False once the request answered: work it left running records nothing. */
  open: boolean;
}

const scope = new AsyncLocalStorage<Write>();
const current = (): Write | undefined => {
  const w = scope.getStore();
  return w?.open ? w : undefined;
};

/** Outcomes recorded for a write that did not succeed: refused, or not taken by the game. */
const RECORDED_FAILURES = new Set([403, 412, 502]);

/** The request's JSON body, as the shared body reader parsed it. */
export function noteBody(body: unknown): void {
  const w = current();
  if (w && w.body === undefined) w.body = body;
}

/**
 * A row being written: its server or group shows the entry too. Table rows name them service_id
 * and group_id, rows read as the API's JSON serviceId and groupId.
 */
export function noteRow(row: Record<string, unknown>): void {
  const w = current();
  if (!w) return;
  const s = row.service_id ?? row.serviceId;
  const g = row.group_id ?? row.groupId;
  if (typeof s === 'string' && UUID.test(s)) w.serviceIds.add(s.toLowerCase());
  if (typeof g === 'string' && UUID.test(g)) w.groupIds.add(g.toLowerCase());
}

type Facts = ReturnType<typeof describeWrite>;

function factsOf(w: Write): Facts {
  const f = describeWrite(w.method, w.route, w.params, w.body);
  return {
    ...f,
    serviceIds: [...new Set([...f.serviceIds, ...w.serviceIds])],
    groupIds: [...new Set([...f.groupIds, ...w.groupIds])],
  };
}

/**
 * A write that did not happen names the servers and groups the caller can see, no others: the
 * ids come from the request, and an outsider's refused write must not plant entries (their text
 * included) in another owner's trail. It stays in the caller's own.
 */
async function seenFacts(q: Queryable, w: Write): Promise<Facts> {
  const f = factsOf(w);
  const [services, groups] = await Promise.all([
    bitsOnEach(q, 'service', f.serviceIds, w.caller.userId),
    bitsOnEach(q, 'group', f.groupIds, w.caller.userId),
  ]);
  return {
    ...f,
    serviceIds: f.serviceIds.filter((_, i) => services[i] !== null),
    groupIds: f.groupIds.filter((_, i) => groups[i] !== null),
  };
}

/** Inserts the entry once: a request's concurrent transactions share its id. */
async function insertEntry(q: Queryable, w: Write, outcome: string, f: Facts = factsOf(w)): Promise<void> {
  await q.query(
    `INSERT INTO activity (activity_id, user_id, application_id, method, route, kind, action, target, summary,
                           service_ids, group_ids, outcome)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::uuid[], $11::uuid[], $12)
     ON CONFLICT (activity_id) DO NOTHING`,
    [
      w.id,
      w.caller.userId,
      w.caller.applicationId,
      w.method,
      w.route,
      f.kind,
      f.action,
      f.target,
      f.summary,
      f.serviceIds,
      f.groupIds,
      outcome,
    ],
    'activity_insert',
  );
}

/**
 * The database routes see: inside a trail scope, each transaction also writes the entry. Every
 * other method is the database's own, looked up at each call, so none added later is dropped.
 */
export function trailedDb(db: Db): Db {
  const trailing =
    (run: Connection['transaction']): Connection['transaction'] =>
    async (fn) => {
      const w = current();
      if (!w) return run(fn);
      const result = await run(async (tx) => {
        const r = await fn(tx);
        // The request may have answered while this transaction ran (work it left running); an
        // earlier transaction of the request (a ban import's batches) may have written it already.
        if (w.open && !w.recorded) await insertEntry(tx, w, 'ok');
        return r;
      });
      w.recorded = true;
      return result;
    };
  const trailed: Db = Object.create(db);
  return Object.assign(trailed, {
    transaction: trailing(db.transaction.bind(db)),
    background: <R>(fn: (conn: Connection) => Promise<R>) =>
      db.background((conn) => fn({ ...conn, transaction: trailing(conn.transaction) })),
  });
}

/**
 * A sign-in, or a failed attempt at one, in the account's own trail: these pass no bearer token,
 * so no write scope records them. Losing one must not fail the sign-in; it is logged instead.
 */
export async function recordSignIn(
  db: Queryable,
  e: { userId: string; applicationId: string; action: string; summary: string; outcome: string },
): Promise<void> {
  try {
    await db.query(
      `INSERT INTO activity (activity_id, user_id, application_id, method, route, kind, action, summary, outcome)
       VALUES ($1, $2, $3, 'POST', '/login/signin', 'signIn', $4, $5, $6)`,
      [uuidv7(), e.userId, e.applicationId, e.action, e.summary.slice(0, 300), e.outcome],
    );
  } catch (err) {
    console.error('activity: recording a sign-in failed:', (err as Error).message);
  }
}

export interface WriteInfo {
  caller: Caller;
  method: string;
  route: string;
  params: Record<string, string>;
}

/** Runs a write route inside a trail scope, then settles its entry and announces it. */
export async function withTrail(
  db: Db,
  publisher: Publisher,
  info: WriteInfo,
  run: () => Promise<Response>,
): Promise<Response> {
  const w: Write = {
    ...info,
    id: uuidv7(),
    body: undefined,
    serviceIds: new Set(),
    groupIds: new Set(),
    recorded: false,
    open: true,
  };
  // What the request answers stands whether or not its entry can still be written here: a
  // refusal is the caller's to hear, and a chat line already reached the game.
  const settle = async (outcome: string) => {
    try {
      const f = w.recorded || outcome === 'ok' ? factsOf(w) : await seenFacts(db, w);
      if (!w.recorded) await insertEntry(db, w, outcome, f);
      const channels = [
        ...f.serviceIds.map((id) => channelFor('services', id)),
        ...f.groupIds.map((id) => channelFor('groups', id)),
        userChannel(w.caller.userId),
      ];
      // A bulk write may reach more channels than one Pusher event may name.
      for (let i = 0; i < channels.length; i += LIMITS.channelsPerEvent)
        await publisher.publish(channels.slice(i, i + LIMITS.channelsPerEvent), ACTIVITY_EVENT, {
          activityId: w.id,
        });
    } catch (err) {
      console.error(`activity: recording ${w.method} ${w.route} failed:`, (err as Error).message);
    }
  };
  let response: Response;
  try {
    response = await scope.run(w, run);
  } catch (e) {
    const failure = e instanceof ApiException ? e : fromDatabaseError(e);
    w.open = false;
    if (failure && (w.recorded || RECORDED_FAILURES.has(failure.status)))
      await settle(failure.code ?? String(failure.status));
    throw e;
  }
  w.open = false;
  if (response.status < 400 || w.recorded || RECORDED_FAILURES.has(response.status))
    await settle(response.status < 400 ? 'ok' : String(response.status));
  return response;
}
