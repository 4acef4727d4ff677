// Answers of the game to actions sent over the link (docs/api.md "Realtime"): the request answers
// {requestId} at once, the result arrives later as `locateResult` or `requestCompleted` on the
// user's channel. An answer may come before anyone waits for it (a fast game, a slow HTTP reply),
// so recent answers are kept for a while and a waiter finds them.

import { ActionEvent, type LocateResult, type RequestCompleted } from '../../domain/api.ts';

export type GameResult = LocateResult | RequestCompleted;

/** How long a console waits for the game before saying it did not answer. */
export const GAME_RESULT_TIMEOUT_MS = 30_000;
/** Answers nobody asked for yet are kept this long. */
const KEEP_MS = 60_000;

export const GAME_NO_ANSWER = 'The game server did not answer in time. It may still carry out the request.';

export interface GameResults {
  /** The realtime handlers to bind on the user's channel. */
  handlers: Record<string, (data: unknown) => void>;
  wait(requestId: string, timeoutMs?: number): Promise<GameResult>;
  /** Hands `onLines` a script test's output as it comes, lines already here first; call the result to stop. */
  follow(requestId: string, onLines: (lines: string[]) => void): () => void;
}

export function createGameResults(now: () => number = Date.now): GameResults {
  const early = new Map<string, { result: GameResult; at: number }>();
  const waiting = new Map<string, (r: GameResult) => void>();
  const earlyLines = new Map<string, { lines: string[]; at: number }>();
  const following = new Map<string, (lines: string[]) => void>();

  const receiveLines = (data: unknown) => {
    const d = data as { requestId?: unknown; lines?: unknown };
    if (typeof d?.requestId !== 'string' || !Array.isArray(d.lines)) return;
    const lines = d.lines.filter((l): l is string => typeof l === 'string');
    const follower = following.get(d.requestId);
    if (follower) return follower(lines);
    for (const [id, e] of earlyLines) if (now() - e.at > KEEP_MS) earlyLines.delete(id);
    const held = earlyLines.get(d.requestId);
    if (held) held.lines.push(...lines);
    else earlyLines.set(d.requestId, { lines, at: now() });
  };

  const receive = (data: unknown) => {
    if (typeof data !== 'object' || data === null) return;
    const result = data as GameResult;
    if (typeof result.requestId !== 'string') return;
    const waiter = waiting.get(result.requestId);
    if (waiter) {
      waiting.delete(result.requestId);
      waiter(result);
      return;
    }
    for (const [id, e] of early) if (now() - e.at > KEEP_MS) early.delete(id);
    early.set(result.requestId, { result, at: now() });
  };

  return {
    handlers: {
      [ActionEvent.locateResult]: receive,
      [ActionEvent.requestCompleted]: receive,
      [ActionEvent.scriptTestOutput]: receiveLines,
    },
    follow(requestId, onLines) {
      const held = earlyLines.get(requestId);
      earlyLines.delete(requestId);
      if (held) onLines(held.lines);
      following.set(requestId, onLines);
      return () => following.delete(requestId);
    },
    wait(requestId, timeoutMs = GAME_RESULT_TIMEOUT_MS) {
      const held = early.get(requestId);
      if (held) {
        early.delete(requestId);
        return Promise.resolve(held.result);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(requestId);
          reject(new Error(GAME_NO_ANSWER));
        }, timeoutMs);
        waiting.set(requestId, (r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
  };
}

/** The console's one instance: the shell binds its handlers, commands wait through AppServices. */
export const gameResults = createGameResults();
