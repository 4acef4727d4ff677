// RCON timings fast enough for tests: polls and lease renewals ten times a second, a lease that
// runs out after a second, reconnects from 50 ms, a reply whole after 20 ms of quiet, a drop's
// grace of half a second, and no wait for a starting server (the tests that need them set their own).
import type { RconTimings } from '../../src/server/game/rcon/connector.ts';

export const RCON_TEST_TIMINGS: Partial<RconTimings> = {
  pollMs: 100,
  renewMs: 100,
  leaseMs: 1_000,
  backoffBaseMs: 50,
  backoffMaxMs: 400,
  commandMs: 2_000,
  quietMs: 20,
  shortQuietMs: 10,
  dropGraceMs: 500,
  startingWaitMs: 0,
};
