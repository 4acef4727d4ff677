// The script tester (SENTINEL-API §3.13 ScriptTest, SPEC §3 "Script test"): runs a handler
// against a made-up event without touching any server. Actions are described in the output, not
// taken. A run ends as success, failure, timeout (past the test limit, 60 s) or requiresReview
// (longer than a real run may take, or a restricted beacon member). The outcome is written to
// the test's row as JSON text: {status, output, error, actions, durationMs}.

import {
  ACTION_FUNCTIONS,
  type Action,
  actionProblem,
  evaluate,
  parseSimple,
} from '../../domain/scripts/index.ts';
import { SCRIPT_LIMITS } from '../../domain/scripts/limits.ts';
import type { ServerContext } from '../context.ts';
import { getBucketValue, type RunEnv } from './perform.ts';
import { type SandboxLimits, type SandboxPool, sandboxError } from './sandbox/pool.ts';

export type TestStatus = 'success' | 'failure' | 'timeout' | 'requiresReview';

export interface TestOutcome {
  status: TestStatus;
  output: string;
  error: string | null;
  actions: Action[];
  /** Actions past SCRIPT_LIMITS.testActions, counted but not listed. */
  actionsOmitted?: number;
  durationMs: number;
}

export interface TestData {
  context: string;
  language: 'Simple' | 'JavaScript';
  code: string;
  parameters?: Record<string, unknown>;
  chatMessage?: string;
  chatType?: string;
  connectionType?: string;
  attackerType?: string;
}

/** The made-up event a test runs against, with what the test body chose. */
function sampleValues(d: TestData): Record<string, unknown> {
  return {
    serviceId: '00000000-0000-4000-8000-000000000000',
    serviceName: 'Test Server',
    serviceNickname: 'Test Server',
    serviceChatName: 'TEST',
    playerId: '00000000-0000-4000-8000-000000000001',
    playerName: 'Test Player',
    characterId: '00000000-0000-4000-8000-000000000002',
    characterName: 'Test Survivor',
    specimenId: 123456789,
    tribeId: '00000000-0000-4000-8000-000000000003',
    tribeName: 'Test Tribe',
    tribeNumber: 1000000001,
    dinoId: '00000000-0000-4000-8000-000000000004',
    dinoName: 'Testy',
    dinoSpecies: 'Raptor',
    dinoLevel: 30,
    dinoAge: 1,
    message: d.chatMessage ?? 'Hello from the tester',
    attackerKind: d.attackerType ?? 'Dino',
    attackerName: 'a wild Rex',
    isUsingVpn: d.connectionType === 'vpn',
    countryCode: 'US',
    continentCode: 'NA',
  };
}

export async function runTest(
  ctx: ServerContext,
  sandbox: SandboxPool,
  userId: string,
  d: TestData,
  limits: SandboxLimits,
  testTimeoutMs: number = SCRIPT_LIMITS.testTimeoutMs,
  /** Each line of output as the script writes it. */
  onOutput?: (line: string) => void,
): Promise<TestOutcome> {
  const started = performance.now();
  const values = sampleValues(d);
  const actions: Action[] = [];
  let omitted = 0;
  const record = (list: Action[]) => {
    const room = Math.max(0, SCRIPT_LIMITS.testActions - actions.length);
    actions.push(...list.slice(0, room));
    omitted += Math.max(0, list.length - room);
  };
  const done = (status: TestStatus, output: string, error: string | null): TestOutcome => ({
    status,
    output,
    error,
    actions,
    ...(omitted > 0 && { actionsOmitted: omitted }),
    durationMs: Math.round(performance.now() - started),
  });
  if (d.language === 'Simple') {
    const script = parseSimple(d.code, d.context);
    if (typeof script === 'string') return done('failure', '', script);
    const taken = evaluate(script, values);
    record(taken);
    const problem = taken.map((a) => actionProblem(a.type, a.options)).find((p) => p !== null);
    return done(problem ? 'failure' : 'success', '', problem ?? null);
  }
  const env: RunEnv = {
    ctx,
    serviceId: '',
    actorId: userId,
    scriptName: 'test',
    http: {},
    async subroutine() {},
  };
  const result = await sandbox.run(
    {
      actorId: userId,
      code: d.code,
      common: '',
      beacon: {
        serviceId: values.serviceId as string,
        serviceName: 'Test Server',
        serviceNickname: 'Test Server',
        serviceChatName: 'TEST',
        params: d.parameters ?? {},
        gameEvent: d.context,
        eventData: values,
        now: Date.now() / 1000,
      },
      allowRestricted: false,
      limits: { ...limits, timeMs: testTimeoutMs },
    },
    {
      async action(fn, options) {
        const type = ACTION_FUNCTIONS[fn];
        const problem = actionProblem(type, options);
        if (problem) throw new Error(problem);
        record([{ type, options }]);
        return null;
      },
      getBucketValue: (bucketId, key, playerId) => getBucketValue(env, bucketId, key, playerId),
      async httpRequest() {
        throw new Error('httpRequest needs the script to be reviewed first.');
      },
      ...(onOutput && { output: async (line: string) => onOutput(line) }),
    },
  );
  const took = result.elapsedMs ?? performance.now() - started;
  if (result.kind === 'time')
    return done('timeout', result.output, `The test ran longer than ${testTimeoutMs / 1000} seconds.`);
  if (result.usedRestricted)
    return done(
      'requiresReview',
      result.output,
      'The script uses beacon members that need a review before it runs.',
    );
  const error = sandboxError(result, { ...limits, timeMs: testTimeoutMs });
  if (error) return done('failure', result.output, error);
  if (took > limits.timeMs)
    return done(
      'requiresReview',
      result.output,
      `The script took ${Math.round(took)} ms; real runs stop after ${limits.timeMs} ms.`,
    );
  return done('success', result.output, null);
}
