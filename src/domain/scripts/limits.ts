// What one JavaScript run may use before the engine ends it with an error (SPEC §9: a test waits
// up to 60 seconds). The reference for script authors quotes these.

export const SCRIPT_LIMITS = {
  /** Wall time of one run, its http requests included. */
  timeMs: 2_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  /** What beacon.log and console.log may print in one run. */
  outputBytes: 64 * 1024,
  httpTimeoutMs: 5_000,
  httpMaxBytes: 1024 * 1024,
  /** A test run may take this long before it ends as a timeout. */
  testTimeoutMs: 60_000,
  /** Actions a test lists; past them it counts the rest (a loop of sendChat stored megabytes). */
  testActions: 200,
  /**
   * Tests one account may start a minute. A person testing as they write starts a few; a loop
   * starting one as soon as the last answers started 340 a second, a third of the API's thread
   * (bench/automation), and every console's requests waited behind them.
   */
  testsPerMinute: 60,
  /** Runs of one trigger chain (a subroutine calling subroutines) before the engine stops it. */
  subroutineDepth: 8,
  /**
   * Running time one account's scripts may use, earned a minute and saved up to a burst: an
   * account cannot keep a sandbox thread busy for good (src/server/scripts/sandbox/budget.ts).
   */
  secondsPerMinute: 6,
  burstSeconds: 5,
  /**
   * Runs one server may have waiting in its queue (webhooks, manual runs, delayed subroutines):
   * past them a call is refused, so a flood of webhook calls to an account out of running time
   * waits in the caller's retries, not in the database.
   */
  queuedPerServer: 500,
} as const;

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const kb = (bytes: number) => `${bytes / 1024} KB`;

export const LIMITS_TEXT = {
  time: `${SCRIPT_LIMITS.timeMs / 1000} seconds`,
  memory: mb(SCRIPT_LIMITS.memoryBytes),
  stack: kb(SCRIPT_LIMITS.stackBytes),
  output: kb(SCRIPT_LIMITS.outputBytes),
  http: `${SCRIPT_LIMITS.httpTimeoutMs / 1000} seconds and ${mb(SCRIPT_LIMITS.httpMaxBytes)}`,
  test: `${SCRIPT_LIMITS.testTimeoutMs / 1000} seconds`,
};
