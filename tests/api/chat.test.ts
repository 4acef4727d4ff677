// POST /sentinel/chat: delivered to the connected game server, which echoes it as a chat event
// the chat view lists; Membership on every target; the errors of SENTINEL-API §2.3.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/sim/index.ts';
import {
  call,
  linkGameServers,
  signIn,
  signInStranger,
  startTestServer,
  type TestServer,
  until,
} from './helpers.ts';

let t: TestServer;
let sim: Simulator;
let owner: string;
let stranger: string;
const island = () => t.demo.servers[0];
const scorched = () => t.demo.servers[1];
const aberration = () => t.demo.servers[2];

beforeAll(async () => {
  t = await startTestServer();
  stranger = await signInStranger(t);
  owner = (await signIn(t.base)).access_token;
  sim = await linkGameServers(t, [island(), scorched()]);
});
afterAll(async () => {
  await sim?.stop();
  await t?.close();
});

const chat = (token: string, body: unknown) => call(t.base, token, 'POST', '/sentinel/chat', body);

async function chatLines(serviceId: string) {
  const r = await call(t.base, owner, 'GET', `/sentinel/logMessages?serviceId=${serviceId}&eventName=chat`);
  return r.body.results as { metadata: Record<string, unknown>; message: string }[];
}

describe('web chat', () => {
  it('reaches the game, which echoes it back as a chat line with the sender', async () => {
    const r = await chat(owner, {
      serviceId: island().serviceId,
      message: 'Hello survivors',
      senderName: 'Admin Ann',
    });
    expect(r.status).toBe(204);
    const lines = await until('the chat line', async () => {
      const l = await chatLines(island().serviceId);
      return l.length > 0 && l;
    });
    expect(lines[0].metadata).toMatchObject({
      originalMessage: 'Hello survivors',
      senderName: 'Admin Ann',
      source: 'WebService',
    });
    expect(lines[0].message).toBe('Admin Ann: Hello survivors');
  });

  it('goes to every server of a group, sender "Server" by default', async () => {
    expect((await chat(owner, { groupId: t.demo.groupId, message: 'Group hello' })).status).toBe(204);
    const lines = await until('the chat line', async () => {
      const l = await chatLines(scorched().serviceId);
      return l.length > 0 && l;
    });
    expect(lines[0].metadata).toMatchObject({ originalMessage: 'Group hello', senderName: 'Server' });
  });

  it('refuses empty messages, missing targets, strangers and disconnected servers', async () => {
    expect((await chat(owner, { serviceId: island().serviceId, message: '  ' })).body.code).toBe(
      'missingMessage',
    );
    expect((await chat(owner, { message: 'hi' })).body.code).toBe('missingTargetId');
    const refused = await chat(stranger, { serviceId: island().serviceId, message: 'hi' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const off = await chat(owner, { serviceId: aberration().serviceId, message: 'anyone?' });
    expect(off.status).toBe(412);
    expect(off.body.code).toBe('serviceNotConnected');
  });
});
