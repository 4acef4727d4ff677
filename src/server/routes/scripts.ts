// /sentinel/scripts, /sentinel/communityScripts and /sentinel/scriptTests (SENTINEL-API §3.13), and
// the explicit script routes of §2.3: like, publish/unpublish, revisions, script menu items.

import { UUID } from '../../domain/constants.ts';
import { Perm } from '../../domain/permissions.ts';
import { SCRIPT_LIMITS } from '../../domain/scripts/limits.ts';
import { SCRIPT_CONTEXTS, SCRIPT_LANGUAGES } from '../../domain/validate.ts';
import type { ServerContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { ApiException, badRequest, forbidden, quoted } from '../http/errors.ts';
import type { ListSpec } from '../http/listQuery.ts';
import { type ApiRouter, json, type LimitRefusal, noContent, param } from '../http/router.ts';
import {
  type ClassSpec,
  isObject,
  missingProperties,
  registerClassPath,
  toAudience,
} from '../model/classPath.ts';
import { queueServiceEvent } from '../model/eventQueue.ts';
import { bitsOn, canSee, holdsAll, holdsAllEach } from '../model/permissions.ts';
import { SCRIPT_JOINS, scriptColumns, scriptWriter } from '../model/script.ts';
import { epoch } from '../model/service.ts';
import { type Handler, handlersFor } from '../scripts/handlers.ts';
import type { TestData } from '../scripts/tester.ts';

const READ = ['sentinel:read'];
const WRITE = ['sentinel:read', 'sentinel:write'];
const TEXT_FIELDS = ['x.name', 'x.preview', 'x.description'];

const scriptList = (extra: Partial<ListSpec>): ListSpec => ({
  id: { param: 'scriptId', expr: 'x.script_id' },
  filters: {
    name: { kind: 'search', exprs: ['x.name'] },
    description: { kind: 'search', exprs: ['x.description'] },
    preview: { kind: 'search', exprs: ['x.preview'] },
    search: { kind: 'search', exprs: TEXT_FIELDS },
  },
  sorts: { name: 'lower(x.name)' },
  defaultSort: 'name',
  tiebreak: 'x.script_id',
  ...extra,
});

/** `scriptsUpdated` (docs/api.md) to everyone who can see each script: their libraries refresh. */
const scriptsUpdated = toAudience('script', 'script_id', 'scriptsUpdated');

/** Tells a script's audience it changed, for a write outside the class path (sharing, review). */
export async function announceScript(ctx: ServerContext, scriptId: string): Promise<void> {
  for (const n of await scriptsUpdated(ctx.db, [{ script_id: scriptId }]))
    await ctx.publisher.publish(n.channels, n.event, n.data);
}

const SCRIPTS: ClassSpec = {
  path: '/sentinel/scripts',
  idProp: 'scriptId',
  table: 'scripts',
  idColumn: 'script_id',
  alive: 'NOT x.deleted',
  columns: scriptColumns('sp.permissions'),
  from: (
    user,
  ) => `scripts x JOIN script_permissions sp ON sp.script_id = x.script_id AND sp.user_id = ${user}::uuid
    ${SCRIPT_JOINS}`,
  visible: () => 'NOT x.deleted',
  listWhere: async () => [],
  list: scriptList({}),
  writer: scriptWriter,
  canChange: (tx, userId, rows) =>
    holdsAllEach(
      tx,
      'script',
      rows.map((r) => r.script_id),
      userId,
      Perm.EditScripts,
    ),
  softDelete: 'deleted = true',
  notify: scriptsUpdated,
};

// The description stays markdown: the console renders it (see docs/api.md, quirks).
const COMMUNITY_SCRIPTS: ClassSpec = {
  path: '/sentinel/communityScripts',
  idProp: 'scriptId',
  table: 'scripts',
  idColumn: 'script_id',
  readOnly: true,
  columns: `${scriptColumns('1')}, u.username, u.username || '#' || left(x.user_id::text, 8) AS "usernameFull",
    mine.liked`,
  from: (user) => `scripts x JOIN users u ON u.user_id = x.user_id ${SCRIPT_JOINS}
    LEFT JOIN script_votes mine ON mine.script_id = x.script_id AND mine.user_id = ${user}::uuid`,
  visible: () => `x.community_status = 'Approved' AND NOT x.deleted`,
  listWhere: async () => [],
  list: scriptList({
    sorts: {
      communityRating: 'coalesce((v.likes + 1.0) / nullif(v.votes + 2.0, 2.0), -1)',
      name: 'lower(x.name)',
    },
    defaultSort: 'communityRating',
    defaultDirection: 'descending',
  }),
};

/**
 * How long a test may be running: one its server never finished counts as given up this long
 * after it was queued, in the list and when the same user starts the next (migration 030 too).
 */
const TEST_GIVEN_UP_AFTER = "interval '60 seconds'";

const SCRIPT_TESTS: ClassSpec = {
  path: '/sentinel/scriptTests',
  idProp: 'requestId',
  table: 'script_tests',
  idColumn: 'request_id',
  readOnly: true,
  columns: `x.request_id AS "requestId", x.script_data AS "scriptData", x.user_id AS "userId",
    ${epoch('x.queue_time')} AS "queueTime", ${epoch('x.completion_time')} AS "completionTime", x.output,
    (x.completion_time IS NULL AND x.queue_time > now() - ${TEST_GIVEN_UP_AFTER}) AS pending`,
  from: () => 'script_tests x',
  // Tests are private to their author; the userId filter of the original is implied.
  visible: (user) => `x.user_id = ${user}::uuid`,
  listWhere: async () => [],
  list: {
    id: { param: 'requestId', expr: 'x.request_id' },
    filters: { userId: { kind: 'exact', expr: 'x.user_id', type: 'uuid' } },
    sorts: { queueTime: 'x.queue_time' },
    defaultSort: 'queueTime',
    defaultDirection: 'descending',
    tiebreak: 'x.request_id',
  },
};

const MENU_CONTEXTS = ['characterScriptRun', 'dinoScriptRun', 'serviceScriptRun', 'tribeScriptRun'] as const;
const TARGETS: Record<string, { key: string; table: string; id: string } | null> = {
  characterScriptRun: { key: 'characterId', table: 'characters', id: 'character_id' },
  dinoScriptRun: { key: 'dinoId', table: 'dinos', id: 'dino_id' },
  tribeScriptRun: { key: 'tribeId', table: 'tribes', id: 'tribe_id' },
  serviceScriptRun: null,
};

async function inWorkshop(db: ServerContext['db'], scriptId: string): Promise<boolean> {
  if (!UUID.test(scriptId)) return false;
  const { rows } = await db.query(
    `SELECT 1 FROM scripts WHERE script_id = $1 AND community_status = 'Approved' AND NOT deleted`,
    [scriptId],
  );
  return rows.length > 0;
}

const scriptNotFound = (scriptId: string) =>
  new ApiException(404, 'Script not found.', 'scriptNotFound', { scriptId });

function scriptIdOf(id: string): string {
  if (!UUID.test(id)) throw badRequest('badScriptId', 'That is not a script id.', { scriptId: id });
  return id.toLowerCase();
}

/** The script-test body: what to run and how (§3.13 scriptData). */
function testData(body: unknown, userId: string, requestId: string) {
  const data = isObject(body) && typeof body.scriptData === 'string' ? safeParse(body.scriptData) : body;
  if (!isObject(data)) throw badRequest('missingKeys', 'Send context, language and code.');
  const missing = ['context', 'language', 'code'].filter((k) => data[k] === undefined);
  if (missing.length > 0) throw badRequest('missingKeys', `Missing ${missing.join(', ')}.`, { missing });
  if (!(SCRIPT_LANGUAGES as readonly unknown[]).includes(data.language))
    throw badRequest('unsupportedLanguage', `Tests run ${SCRIPT_LANGUAGES.join(' or ')}.`);
  if (typeof data.context !== 'string' || !SCRIPT_CONTEXTS.includes(data.context))
    throw badRequest('invalidContext', `${quoted(data.context)} is not a script context.`);
  if (typeof data.code !== 'string') throw badRequest('missingKeys', 'code must be text.');
  const values = data.parameters ?? {};
  if (
    !isObject(values) ||
    !Object.values(values).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
  )
    throw badRequest('badParameters', 'parameters are an object of names to text, numbers or true/false.');
  return { ...data, requestId, userId } as TestData & { requestId: string; userId: string };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function registerScriptRoutes(router: ApiRouter, ctx: ServerContext): void {
  const { db } = ctx;
  // Explicit routes first, so /scripts/{id}/revisions is not read as an item path.
  router.authed('GET', '/sentinel/scripts/:id/revisions', READ, async (c, caller) => {
    const id = param(c, 'id');
    // A Workshop script's versions are public, as the script is (the preview's version picker).
    if ((await bitsOn(db, 'script', id, caller.userId)) === null && !(await inWorkshop(db, id)))
      throw new ApiException(404, 'Not found', 'notFound', { scriptId: id });
    const { rows } = await db.query(
      `SELECT revision_id AS "revisionId", ${epoch('date_created')} AS "dateCreated", approval_status AS "approvalStatus"
         FROM script_revisions WHERE script_id = $1 ORDER BY date_created DESC, revision_id`,
      [id],
    );
    return json(c, { revisions: rows });
  });

  // One version's content, for what changed between two (the console's update review). Seen by
  // whoever sees the script or its Workshop page, and by whoever sees a server or group it is
  // attached to: an attacher reviews what waits for them even once the script left the Workshop.
  router.authed('GET', '/sentinel/scripts/:id/revisions/:revisionId', READ, async (c, caller) => {
    const id = param(c, 'id');
    const revisionId = param(c, 'revisionId');
    const notFound = () => new ApiException(404, 'Not found', 'notFound', { scriptId: id, revisionId });
    if (!UUID.test(id) || !UUID.test(revisionId)) throw notFound();
    const seen =
      (await bitsOn(db, 'script', id, caller.userId)) !== null ||
      (await inWorkshop(db, id)) ||
      (
        await db.query(
          `SELECT 1 FROM service_scripts x WHERE x.script_id = $1 AND ${canSee('service', 'x.service_id', '$2')}
           UNION ALL
           SELECT 1 FROM group_scripts x WHERE x.script_id = $1 AND ${canSee('group', 'x.group_id', '$2')} LIMIT 1`,
          [id, caller.userId],
        )
      ).rows.length > 0;
    if (!seen) throw notFound();
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT r.revision_id AS "revisionId", ${epoch('r.date_created')} AS "dateCreated",
              r.approval_status AS "approvalStatus", r.common_javascript AS "commonJavascript", r.parameters,
              coalesce((SELECT json_agg(json_build_object('context', e.context, 'keyword', e.keyword,
                                                          'language', e.language, 'code', e.code)
                                        ORDER BY e.context, e.keyword, e.script_event_id)
                          FROM script_events e WHERE e.revision_id = r.revision_id), '[]') AS events
         FROM script_revisions r WHERE r.script_id = $1 AND r.revision_id = $2`,
      [id, revisionId],
    );
    if (!rows[0]) throw notFound();
    return json(c, rows[0]);
  });

  router.authed('PUT', '/sentinel/scripts/:id/like', WRITE, async (c, caller) => {
    const id = scriptIdOf(param(c, 'id'));
    const body = await readJson(c);
    const liked = isObject(body) ? body.liked : undefined;
    if (liked !== true && liked !== false && liked !== null)
      throw badRequest('badRequestBody', 'Send {"liked": true, false or null}.');
    if (!(await inWorkshop(db, id))) throw scriptNotFound(id);
    await (liked === null
      ? db.query('DELETE FROM script_votes WHERE script_id = $1 AND user_id = $2', [id, caller.userId])
      : db.query(
          `INSERT INTO script_votes (script_id, user_id, liked) VALUES ($1, $2, $3)
           ON CONFLICT (script_id, user_id) DO UPDATE SET liked = EXCLUDED.liked`,
          [id, caller.userId, liked],
        ));
    return json(c, { liked });
  });

  for (const [method, status] of [
    ['POST', 'Approved'],
    ['DELETE', 'Private'],
  ] as const)
    router.authed(method, '/sentinel/scripts/:id/publish', WRITE, async (c, caller) => {
      const id = scriptIdOf(param(c, 'id'));
      const { rows } = await db.query<{ community_status: string }>(
        'SELECT community_status FROM scripts WHERE script_id = $1 AND user_id = $2 AND NOT deleted',
        [id, caller.userId],
      );
      if (!rows[0]) throw scriptNotFound(id);
      if (rows[0].community_status === 'Rejected')
        throw badRequest(
          'scriptRejected',
          'This script was rejected from the Workshop and cannot be shared again.',
        );
      await db.query('UPDATE scripts SET community_status = $2 WHERE script_id = $1', [id, status]);
      await announceScript(ctx, id);
      return json(c, { scriptId: id, communityStatus: status });
    });

  /**
   * Users with a test running in this process: another test of theirs is refused here, without the
   * two statements a refusal by the database takes (a user sending tests as fast as they are
   * answered made most of them refusals). The unique key stays the rule across processes.
   */
  const testing = new Set<string>();
  const stillRunning = () => new ApiException(412, 'A test of yours is still running.', 'testAlreadyRunning');
  const TOO_MANY_TESTS: LimitRefusal = {
    code: 'tooManyTests',
    message: `You have started ${SCRIPT_LIMITS.testsPerMinute} tests in the last minute. Wait a moment before the next.`,
  };

  router.authed('POST', '/sentinel/scriptTests', WRITE, async (c, caller) => {
    // Before the body is read: past the limit, a refusal costs the thread next to nothing.
    await router.limit(c, `tests:${caller.userId}`, SCRIPT_LIMITS.testsPerMinute, TOO_MANY_TESTS);
    const requestId = crypto.randomUUID();
    const data = testData(await readJson(c), caller.userId, requestId);
    if (testing.has(caller.userId)) throw stillRunning();
    // One test per user: a unique key over the running ones (migration 030) refuses a second at
    // once, in one statement. A test its process never finished is given up 60 seconds after it
    // was queued (as the list reads it), and the start tried once more.
    const start = async () =>
      (
        await db.query(
          `INSERT INTO script_tests (request_id, user_id, script_data) VALUES ($1, $2, $3)
           ON CONFLICT (user_id) WHERE completion_time IS NULL DO NOTHING RETURNING 1`,
          [requestId, caller.userId, JSON.stringify(data)],
        )
      ).rows.length > 0;
    const givenUp = async () =>
      (
        await db.query(
          `UPDATE script_tests SET completion_time = queue_time + ${TEST_GIVEN_UP_AFTER}
            WHERE user_id = $1 AND completion_time IS NULL AND queue_time <= now() - ${TEST_GIVEN_UP_AFTER}
           RETURNING 1`,
          [caller.userId],
        )
      ).rows.length > 0;
    if (!(await start()) && !((await givenUp()) && (await start()))) throw stillRunning();
    testing.add(caller.userId);
    const done = () => testing.delete(caller.userId);
    ctx.scripts.test(requestId, caller.userId, data).then(done, done);
    return json(c, { requestId });
  });

  router.authed('GET', '/sentinel/scriptMenuItems', READ, async (c, caller) => {
    const q = new URL(c.req.url).searchParams;
    const serviceId = q.get('serviceId');
    const context = q.get('context');
    // The original answers an empty list on any problem; so do we.
    if (!(MENU_CONTEXTS as readonly (string | null)[]).includes(context)) return json(c, []);
    if (!(await holdsAll(db, 'service', serviceId, caller.userId, Perm.ControlServices))) return json(c, []);
    // One entry per handler, however many times its script is attached.
    const handlers = await handlersFor(db, serviceId!, { context: context! });
    const seen = new Map<string, Handler>(handlers.map((h) => [h.scriptEventId, h]));
    return json(
      c,
      [...seen.values()].map((e) => ({
        menuText: e.keyword,
        scriptEventId: e.scriptEventId,
        arguments: e.arguments,
      })),
    );
  });

  router.authed('POST', '/sentinel/scriptMenuItems/:eventId', WRITE, async (c, caller) => {
    const eventId = param(c, 'eventId');
    if (!UUID.test(eventId)) throw badRequest('badEventId', 'That is not a script event id.');
    const body = await readJson(c);
    if (!isObject(body) || typeof body.serviceId !== 'string')
      throw badRequest('missingKeys', 'Send serviceId.');
    const serviceId = body.serviceId;
    const bits = await bitsOn(db, 'service', serviceId, caller.userId);
    if (bits === null) throw new ApiException(404, 'Server not found.', 'serviceNotFound', { serviceId });
    if (!(await holdsAll(db, 'service', serviceId, caller.userId, Perm.ControlServices)))
      throw forbidden(body);
    const [event] = await handlersFor(db, serviceId, { scriptEventId: eventId.toLowerCase() });
    if (!event || !(event.context in TARGETS))
      throw new ApiException(404, 'That script is not available on this server.', 'eventNotFound');
    const args = isObject(body.arguments) ? body.arguments : {};
    const missingArgs = event.arguments
      .filter((a) => a.required && args[a.name] === undefined)
      .map((a) => a.name);
    if (missingArgs.length > 0)
      throw badRequest('missingKeys', `Missing arguments ${missingArgs.join(', ')}.`);
    const target = TARGETS[event.context];
    const extra: Record<string, string> = {};
    if (target) {
      const id = body[target.key];
      if (typeof id !== 'string') throw missingProperties([target.key]);
      const found =
        UUID.test(id) &&
        (
          await db.query(`SELECT 1 FROM ${target.table} WHERE ${target.id} = $1 AND service_id = $2`, [
            id,
            serviceId,
          ])
        ).rows.length > 0;
      if (!found)
        throw new ApiException(404, 'The target is not on this server.', 'targetNotFound', {
          [target.key]: id,
        });
      extra[target.key] = id;
    }
    const { rows: user } = await db.query<{ username: string }>(
      'SELECT username FROM users WHERE user_id = $1',
      [caller.userId],
    );
    const defaults = Object.fromEntries(event.arguments.map((a) => [a.name, a.default]));
    await queueServiceEvent(db, serviceId, {
      event: event.context,
      scriptEventId: event.scriptEventId,
      scriptId: event.scriptId,
      scriptName: event.scriptName,
      menuText: event.keyword,
      arguments: { ...defaults, ...args },
      userId: caller.userId,
      username: user[0]?.username ?? '',
      ...extra,
    });
    ctx.scripts.wake();
    return noContent(c);
  });

  registerClassPath(router, ctx, SCRIPTS);
  registerClassPath(router, ctx, COMMUNITY_SCRIPTS);
  registerClassPath(router, ctx, SCRIPT_TESTS);
}
