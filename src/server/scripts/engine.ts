// The script engine: finds the handlers a trigger starts on a server (handlers.ts), runs each,
// Simple on this thread and JavaScript in the sandbox threads, takes the actions (perform.ts),
// and leaves one Service log line per run with the trigger, the outcome, the duration and the
// actions taken or the error. Triggers are game events from the link, the event queue (webhooks
// and menu items, written by any API process), cron ticks, subroutine calls and commands typed
// in game.

import { ActionEvent, type LogMessage, userChannel } from '../../domain/api.ts';
import type { EventName } from '../../domain/enums.ts';
import {
  ACTION_FUNCTIONS,
  type Action,
  actionProblem,
  cronSchedule,
  evaluate,
  firesAt,
  matches,
  parseSimple,
  SCRIPT_LIMITS,
} from '../../domain/scripts/index.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { insertLogs } from '../game/ingest.ts';
import { coalesce } from '../model/coalesce.ts';
import { queueServiceEvent } from '../model/eventQueue.ts';
import { publishLogRows } from '../model/logMessage.ts';
import type { GameEvent } from '../model/world.ts';
import type { HttpOptions } from '../net/guardedHttp.ts';
import { guardedRequest } from '../net/guardedHttp.ts';
import { eventValues, type ServiceNames } from './eventValues.ts';
import { createFairRunner } from './fairRunner.ts';
import { cronHandlers, type Handler, type HandlerQuery, matching, serviceHandlers } from './handlers.ts';
import { getBucketValue, perform, type RunEnv } from './perform.ts';
import { createScriptTimeBudget } from './sandbox/budget.ts';
import {
  createSandboxPool,
  defaultThreads,
  SANDBOX_LIMITS,
  type SandboxLimits,
  type SandboxPool,
  sandboxError,
} from './sandbox/pool.ts';
import { runTest, type TestData, type TestOutcome } from './tester.ts';

export interface Trigger extends HandlerQuery {
  /** The event's value fields, or the target's for a menu item. */
  values?: Record<string, unknown>;
  /** A triggered context's arguments: webhook parameters, menu item or command arguments. */
  args?: Record<string, unknown>;
  /** Subroutine calls this deep already. */
  depth?: number;
}

export interface RunRecord {
  scriptName: string;
  outcome: 'success' | 'failure';
  actions: { type: string; ok: boolean; error?: string }[];
  error: string | null;
  output: string;
  durationMs: number;
}

export interface EngineOptions {
  /** JavaScript threads; default the cores, at most 4. */
  threads?: number;
  limits?: Partial<SandboxLimits>;
  http?: HttpOptions;
  /** How often the event queue is read when nothing wakes it; default 1 s. */
  queuePollMs?: number;
  /** Cron ticks off, for tests that drive cronTick themselves. */
  manualCron?: boolean;
  /** How long a test run may take before it ends as a timeout; default 60 s. */
  testTimeoutMs?: number;
  /** Script running time an account earns a minute (budget.ts); 0: no limit. */
  secondsPerMinute?: number;
  /** The most of it an account saves up; default SCRIPT_LIMITS.burstSeconds. */
  burstSeconds?: number;
}

export interface ScriptEngine {
  /** A game event the link stored: its context's handlers, and a typed command's. */
  onGameEvent(serviceId: string, event: GameEvent): void;
  /** Runs the handlers a trigger starts; resolves with what each run did. */
  trigger(serviceId: string, t: Trigger): Promise<RunRecord[]>;
  /** Something was queued: read the queue now. */
  wake(): void;
  /** Runs the cron handlers due in the minute starting at `minute`, each once across processes. */
  cronTick(minute: Date): Promise<number>;
  /** Runs a queued script test; settles once its outcome is in the test's row. */
  test(requestId: string, userId: string, data: TestData): Promise<TestOutcome>;
  sandbox: SandboxPool;
  limits: SandboxLimits;
  http: HttpOptions;
  close(): Promise<void>;
}

/** Contexts the event queue carries: a menu item run, a webhook or a delayed subroutine. */
const QUEUED_CONTEXTS = [
  'serviceScriptRun',
  'characterScriptRun',
  'dinoScriptRun',
  'tribeScriptRun',
  'webhook',
  'subroutine',
] as const;

async function serviceNames(db: Queryable, serviceId: string): Promise<ServiceNames | null> {
  const { rows } = await db.query<ServiceNames>(
    `SELECT service_id AS "serviceId", name AS "serviceName", coalesce(nickname, name) AS "serviceNickname",
            coalesce(mini_name, nickname, name) AS "serviceChatName"
       FROM services WHERE service_id = $1 AND NOT deleted`,
    [serviceId],
  );
  return rows[0] ?? null;
}

/** What a queued row starts: a delayed subroutine as it was called, or a menu item or webhook run. */
function queuedTrigger(e: Record<string, unknown>): Trigger {
  if (e.event === 'subroutine')
    return {
      context: 'subroutine',
      keyword: String(e.keyword),
      values: (e.values as Record<string, unknown> | undefined) ?? {},
      depth: Number(e.depth) || 1,
    };
  const values: Record<string, unknown> = {};
  for (const k of ['characterId', 'dinoId', 'tribeId', 'userId', 'username'] as const)
    if (e[k] !== undefined) values[k] = e[k];
  return {
    context: String(e.event),
    scriptEventId: typeof e.scriptEventId === 'string' ? e.scriptEventId : undefined,
    values,
    args: (e.arguments as Record<string, unknown> | undefined) ?? {},
  };
}

/** `/kw a b` typed in chat, or `scriptcommand kw a b` at the console: the keyword and the words after it. */
function typedCommand(event: GameEvent): { context: EventName; keyword: string; words: string[] } | null {
  const m = event.metadata;
  if (event.eventName === 'slashCommand' || event.eventName === 'scriptCommand') {
    const text = String(m.command ?? m.message ?? '').replace(/^\/|^(cheat\s+)?scriptcommand\s+/i, '');
    const [keyword = '', ...words] = text.trim().split(/\s+/);
    return keyword ? { context: event.eventName, keyword, words } : null;
  }
  return null;
}

const now = () => performance.now();

/** A run's Service log line, as written. */
interface RunLine {
  serviceId: string;
  event: GameEvent;
}

export function createScriptEngine(ctx: ServerContext, opts: EngineOptions = {}): ScriptEngine {
  const limits = { ...SANDBOX_LIMITS, ...opts.limits };
  const http = { allow: ctx.config.outboundAllow, ...opts.http };
  const threads = opts.threads ?? defaultThreads();
  const perMinute = opts.secondsPerMinute ?? SCRIPT_LIMITS.secondsPerMinute;
  const budget =
    perMinute > 0
      ? createScriptTimeBudget({
          secondsPerMinute: perMinute,
          burstSeconds: opts.burstSeconds ?? SCRIPT_LIMITS.burstSeconds,
        })
      : undefined;
  const sandbox = createSandboxPool(threads, budget);
  const inFlight = new Set<Promise<unknown>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const namesOf = (serviceId: string) =>
    ctx.reads.setting(`names:${serviceId}`, () => serviceNames(ctx.db, serviceId));
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    p.catch((e) => console.error('scripts:', e)).finally(() => inFlight.delete(p));
    return p;
  };

  function later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  // Run lines of runs ending together are written and published together: at a thousand runs a
  // second, one statement each was most of what the database did. The insert returns the lines
  // as published, so they are not read again.
  const writeRunLines = coalesce<RunLine>(async (lines) => {
    const byService = new Map<string, RunLine[]>();
    for (const l of lines) {
      const group = byService.get(l.serviceId);
      if (group) group.push(l);
      else byService.set(l.serviceId, [l]);
    }
    const written: LogMessage[] = [];
    for (const [serviceId, ofService] of byService) {
      try {
        const rows = await insertLogs(
          ctx.db,
          serviceId,
          ofService.map(({ event }) => ({ event, key: null })),
        );
        for (const row of rows) if (row) written.push(row);
      } catch (e) {
        // One server's lines (it was deleted meanwhile, say), not every server's in the round.
        console.error(`scripts: run lines of ${serviceId} were not written:`, (e as Error).message);
      }
    }
    await publishLogRows(ctx, written);
  });

  function logRun(serviceId: string, h: Handler, t: Trigger, r: RunRecord): Promise<void> {
    const what =
      r.outcome === 'success'
        ? r.actions.length > 0
          ? `took ${r.actions.map((a) => (a.ok ? a.type : `${a.type} (failed: ${a.error})`)).join(', ')}`
          : 'took no action'
        : `failed: ${r.error}`;
    const keyword = t.keyword ?? h.keyword;
    const trigger = keyword ? `${t.context} ${keyword}` : t.context;
    return writeRunLines({
      serviceId,
      event: {
        eventName: 'scriptRun',
        time: Date.now() / 1000,
        type: 'Service',
        level: r.outcome === 'success' && r.actions.every((a) => a.ok) ? 'Informational' : 'Warning',
        metadata: {
          scriptId: h.scriptId,
          scriptName: h.scriptName,
          scriptEventId: h.scriptEventId,
          revisionId: h.revisionId,
          trigger: t.context,
          keyword: keyword ?? null,
          outcome: r.outcome,
          durationMs: r.durationMs,
          actions: r.actions,
          error: r.error,
          output: r.output.slice(0, 2000),
        },
        message: `Script ${h.scriptName} (${trigger}) ${what} in ${r.durationMs} ms.`,
      },
    });
  }

  /**
   * Runs one handler: its actions taken in order, the game's answers awaited for the log line.
   * Null when a Simple script's conditions do not hold: it did not run, and leaves no line.
   */
  async function runHandler(
    serviceId: string,
    names: ServiceNames,
    h: Handler,
    t: Trigger,
  ): Promise<RunRecord | null> {
    const started = now();
    const taken: { type: string; sent: Promise<unknown> | null; error?: string }[] = [];
    const depth = t.depth ?? 0;
    const env: RunEnv = {
      ctx,
      serviceId,
      actorId: h.attachedBy,
      scriptName: h.scriptName,
      http,
      async subroutine(name, delayMs) {
        if (depth + 1 > SCRIPT_LIMITS.subroutineDepth)
          throw new Error(`Subroutines called each other more than ${SCRIPT_LIMITS.subroutineDepth} deep.`);
        const call = { keyword: name, values: t.values, depth: depth + 1 };
        if (delayMs <= 0) {
          void track(trigger(serviceId, { context: 'subroutine', ...call }));
          return;
        }
        // Queued, so a restart meanwhile does not lose it: any process runs it once it is due.
        await queueServiceEvent(ctx.db, serviceId, { event: 'subroutine', ...call }, delayMs);
        later(delayMs + 5, wake);
      },
    };
    const take = async (a: Action) => {
      try {
        const { sent } = await perform(env, a);
        taken.push({ type: a.type, sent });
      } catch (e) {
        taken.push({ type: a.type, sent: null, error: (e as Error).message });
        throw e;
      }
    };
    let error: string | null = null;
    let output = '';
    const values = { ...names, ...t.values };
    if (h.language === 'Simple') {
      const script = parseSimple(h.code, h.context);
      if (typeof script === 'string') error = script;
      else if (!matches(script, values)) return null;
      else
        try {
          for (const a of evaluate(script, values)) {
            const problem = actionProblem(a.type, a.options);
            if (problem) throw new Error(problem);
            // Wall time, as a JavaScript run's: the actions' waits count.
            if (now() - started > limits.timeMs)
              throw new Error(sandboxError({ kind: 'time', output: '', usedRestricted: false }, limits)!);
            await take(a);
          }
        } catch (e) {
          error = (e as Error).message;
        }
    } else {
      const result = await sandbox.run(
        {
          actorId: h.attachedBy,
          code: h.code,
          common: h.commonJavascript,
          beacon: {
            ...names,
            // The attachment's parameter values win over a call's arguments of the same name.
            params: { ...t.args, ...h.params },
            gameEvent: h.context,
            eventData: { ...values, ...(t.args ? { args: t.args } : {}) },
            now: Date.now() / 1000,
          },
          allowRestricted: h.approvalStatus === 'Approved',
          limits,
        },
        {
          async action(fn, options) {
            const type = ACTION_FUNCTIONS[fn];
            const problem = actionProblem(type, options);
            if (problem) throw new Error(problem);
            await take({ type, options });
            return null;
          },
          getBucketValue: (bucketId, key, playerId) => getBucketValue(env, bucketId, key, playerId),
          httpRequest: (method, url, body, headers) => guardedRequest(method, url, body, headers, http),
        },
      );
      output = result.output;
      error = sandboxError(result, limits);
    }
    const actions = await Promise.all(
      taken.map(async (a) => {
        if (a.error) return { type: a.type, ok: false, error: a.error };
        try {
          await a.sent;
          return { type: a.type, ok: true };
        } catch (e) {
          return { type: a.type, ok: false, error: (e as Error).message };
        }
      }),
    );
    return {
      scriptName: h.scriptName,
      outcome: error ? 'failure' : 'success',
      actions,
      error,
      output,
      durationMs: Math.round(now() - started),
    };
  }

  async function trigger(serviceId: string, t: Trigger): Promise<RunRecord[]> {
    if (closed) return [];
    const names = await namesOf(serviceId);
    if (!names) return [];
    // One read per server for every kind of event it sends, rather than one per kind.
    const handlers = matching(
      await ctx.reads.setting(`handlers:${serviceId}`, () => serviceHandlers(ctx.db, serviceId)),
      t,
    );
    const records: RunRecord[] = [];
    for (const h of handlers) {
      const args = {
        ...Object.fromEntries(h.arguments.map((a) => [a.name, a.default])),
        ...t.args,
      };
      const r = await runHandler(serviceId, names, h, { ...t, args });
      if (!r) continue;
      records.push(r);
      await logRun(serviceId, h, t, r);
    }
    return records;
  }

  async function gameEvent(serviceId: string, event: GameEvent): Promise<void> {
    // A script's own chat coming back from the game starts nothing, or a script answering chat
    // with chat would answer itself for ever.
    if (event.eventName === 'chat' && event.metadata.source === 'Script') return;
    const names = await namesOf(serviceId);
    if (!names) return;
    const values = eventValues(event.metadata, names);
    const typed = typedCommand(event);
    if (typed) {
      const args = Object.fromEntries(typed.words.map((w, i) => [String(i), w]));
      await trigger(serviceId, {
        context: typed.context,
        keyword: typed.keyword,
        values: { ...values, message: typed.words.join(' ') },
        args: { ...args, words: typed.words.join(' ') },
      });
      return;
    }
    await trigger(serviceId, { context: event.eventName, values });
  }

  // The event queue: rows claimed with SKIP LOCKED and deleted in the claiming transaction, so
  // each is run by exactly one process; run fairly between owners (fairRunner.ts). A claim takes
  // each owner's oldest rows first, and none of an owner who already has enough waiting here, so
  // another owner's run is claimed as soon as it is due, whatever one owner has queued; nor of an
  // owner out of script time (budget.ts), whose rows wait for it rather than being claimed only
  // to be refused (a flood of them, each a claim, a refusal and a log line, cost the consoles'
  // p99 1.5x with no script running at all). Time is an actor's, the queue an owner's: a script
  // someone else attached to this owner's server waits with the owner's.
  const runner = createFairRunner({
    total: 2 * threads,
    perOwner: Math.max(1, Math.floor(threads / 2)),
    onSettled: () => wake(),
  });
  let draining: Promise<void> | null = null;
  let again = false;
  async function drain(): Promise<void> {
    for (;;) {
      const { rows } = await ctx.db.query<{
        service_id: string;
        event_data: Record<string, unknown>;
        owner: string;
      }>(
        `DELETE FROM service_event_queue q USING services s
          WHERE s.service_id = q.service_id AND q.queue_id IN (
            SELECT queue_id FROM service_event_queue WHERE queue_id IN (
              SELECT queue_id FROM (
                SELECT e.queue_id, e.queue_time,
                       row_number() OVER (PARTITION BY o.user_id ORDER BY e.queue_time) AS turn
                  FROM service_event_queue e JOIN services o ON o.service_id = e.service_id
                 WHERE e.event_data->>'event' = ANY($1::text[]) AND e.queue_time <= now()
                   AND o.user_id <> ALL($2::uuid[])) due
               WHERE turn <= $3 ORDER BY turn, queue_time LIMIT $4)
            FOR UPDATE SKIP LOCKED)
         RETURNING q.service_id, q.event_data, s.user_id AS owner`,
        [
          QUEUED_CONTEXTS,
          [...runner.busyOwners(), ...(budget?.outOfTime() ?? [])],
          runner.perOwner,
          runner.total,
        ],
      );
      if (rows.length === 0) return;
      for (const r of rows)
        runner.add(r.owner, () => track(trigger(r.service_id, queuedTrigger(r.event_data))));
    }
  }
  function wake(): void {
    if (closed) return;
    if (draining) {
      again = true;
      return;
    }
    draining = track(drain()).finally(() => {
      draining = null;
      if (again) {
        again = false;
        wake();
      }
    });
  }
  const poller = setInterval(wake, opts.queuePollMs ?? 1_000);
  poller.unref();

  async function cronTick(minute: Date): Promise<number> {
    let ran = 0;
    // A day of rows is plenty to keep a minute from running twice.
    await ctx.db.query(`DELETE FROM script_cron_runs WHERE tick < $1::timestamptz - interval '1 day'`, [
      minute.toISOString(),
    ]);
    for (const h of await cronHandlers(ctx.db)) {
      const schedule = h.keyword ? cronSchedule(h.keyword) : null;
      if (!schedule || !firesAt(schedule, minute)) continue;
      // The first process to record this minute for this attachment runs it; the others see the row.
      const { rows } = await ctx.db.query(
        `INSERT INTO script_cron_runs (attachment_id, script_event_id, service_id, tick) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [h.attachmentId, h.scriptEventId, h.serviceId, minute.toISOString()],
      );
      if (rows.length === 0) continue;
      ran++;
      const names = await namesOf(h.serviceId);
      if (!names) continue;
      const t: Trigger = { context: 'cron', keyword: h.keyword ?? undefined, values: {} };
      const args = Object.fromEntries(h.arguments.map((a) => [a.name, a.default]));
      const r = await runHandler(h.serviceId, names, h, { ...t, args });
      if (r) await logRun(h.serviceId, h, t, r);
    }
    return ran;
  }

  function scheduleCron(): void {
    const next = Math.floor(Date.now() / 60_000 + 1) * 60_000;
    later(next - Date.now() + 50, () => {
      void track(cronTick(new Date(next)));
      scheduleCron();
    });
  }
  if (!opts.manualCron) scheduleCron();

  return {
    onGameEvent(serviceId, event) {
      if (!closed) void track(gameEvent(serviceId, event));
    },
    trigger: (serviceId, t) => track(trigger(serviceId, t)),
    wake,
    cronTick: (minute) => track(cronTick(minute)),
    test: (requestId, userId, data) =>
      track(
        (async () => {
          // Lines written together go out as one event: a chatty script is not a flood of them.
          const say = coalesce<string>((lines) =>
            ctx.publisher.publish([userChannel(userId)], ActionEvent.scriptTestOutput, { requestId, lines }),
          );
          const outcome = await runTest(ctx, sandbox, userId, data, limits, opts.testTimeoutMs, (line) => {
            say(line).catch((e) => console.error('publishing test output failed', e));
          });
          await ctx.db.query(
            'UPDATE script_tests SET completion_time = now(), output = $2 WHERE request_id = $1',
            [requestId, JSON.stringify(outcome)],
          );
          // The tester waits for this rather than asking again and again (docs/api.md "Realtime").
          // Not awaited: the test is over once its row says so, and a caller that read the row may
          // start the next test before the announcement has gone out.
          void track(
            ctx.publisher
              .publish([userChannel(userId)], ActionEvent.requestCompleted, {
                requestId,
                ok: outcome.status === 'success',
              })
              .catch((e) => console.error('publishing a test outcome failed', e)),
          );
          return outcome;
        })(),
      ),
    sandbox,
    limits,
    http,
    async close() {
      closed = true;
      clearInterval(poller);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // Runs still in a sandbox thread end now; the rest finish their writes.
      await sandbox.close();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
