// Test-only control of the simulated game servers, for the browser tests: stop and start one
// server's RCON side (as a game server restart takes it away and brings it back, the game keeping
// what was said meanwhile), and have someone on it say a line in chat. Started only when
// PALISADE_SIM_CONTROL_PORT is set (scripts/e2e-server.mjs does), on loopback, never otherwise.
//
//   POST /servers/{index}/rcon/stop    POST /servers/{index}/rcon/start
//   POST /servers/{index}/chat         {"senderName": "…", "message": "…", "source"?: "Script",
//                                       "scores"?: {"hateScore": 0.91}, "to"?: {"recipientType": "Survivor", "recipientId": "…"}}

import { createServer, type IncomingMessage } from 'node:http';
import { MODERATION_SCORES, type ModerationScore } from '../domain/enums.ts';
import * as ev from './events.ts';
import type { Simulator } from './index.ts';

const ROUTE = /^\/servers\/(\d+)\/(rcon\/stop|rcon\/start|chat)$/;

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  const parsed: unknown = text ? JSON.parse(text) : {};
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/** Listens on 127.0.0.1:port; resolves to its close. */
export function startSimControl(sim: Simulator, port: number): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    const m = req.method === 'POST' ? ROUTE.exec(req.url ?? '') : null;
    const game = m ? sim.servers[Number(m[1])] : undefined;
    const answer = (status: number, text = '') => res.writeHead(status).end(text);
    if (!m || !game) return answer(404, 'No such control.');
    const act = async () => {
      if (m[2] === 'chat') {
        const b = await bodyOf(req);
        const message = String(b.message ?? '');
        if (!message) return answer(400, 'message is required.');
        const to = b.to as ev.ChatLine['to'];
        game.play((w) => [
          ev.chat({
            source: b.source === 'Script' ? 'Script' : 'Game',
            senderName: String(b.senderName ?? 'Visitor'),
            language: 'en',
            translations: { en: message },
            scores: b.scores
              ? givenScores(b.scores as Partial<Record<ModerationScore, number>>)
              : ev.moderationScores(w.rng),
            scope: 'Global',
            ...(to ? { to } : {}),
          }),
        ]);
      } else if (!game.rcon) return answer(409, 'This server does not answer RCON.');
      else if (m[2] === 'rcon/stop') await game.rcon.stop();
      else await game.rcon.start();
      answer(204);
    };
    act().catch((e: unknown) => answer(500, (e as Error).message));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve(() => new Promise<void>((done) => server.close(() => done()))),
    );
  });
}

/**
 * A line's scores as a test gives them, every other one zero: a test that says "hate 0.91" sees
 * that and no random spike beside it.
 */
function givenScores(given: Partial<Record<ModerationScore, number>>): Record<ModerationScore, number> {
  return Object.fromEntries(MODERATION_SCORES.map((name) => [name, given[name] ?? 0])) as Record<
    ModerationScore,
    number
  >;
}
