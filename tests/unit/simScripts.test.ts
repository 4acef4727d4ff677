// What the simulator does for scripts: players type slash and script commands (and plain chat),
// and the commands scripts send change the world: kill a survivor (who drops what they carried),
// destroy an item everywhere, buffs, loot to a survivor or a tribe, relative teleports, chat from
// a script with source Script.

import { expect, it } from 'vitest';
import { BEHAVIOURS, typedLine } from '../../src/sim/behaviours.ts';
import { runCommand } from '../../src/sim/commands.ts';
import { createPopulation } from '../../src/sim/population.ts';
import { createRng } from '../../src/sim/random.ts';
import { World } from '../../src/sim/world.ts';

function world() {
  const rng = createRng(7);
  const w = new World(rng.fork(1), createPopulation(rng.fork(0), 10));
  const [a, b] = w.candidates();
  w.join(a);
  w.join(b);
  const tribe = w.createTribe(w.survivor(a), 'Testers');
  w.joinTribe(w.survivor(b), w.tribes.get(w.survivor(a).tribeId!)!);
  return { w, a: w.survivor(a), b: w.survivor(b), tribe };
}

it('turns typed lines into slash commands, script commands or chat', () => {
  const { w, a } = world();
  expect(typedLine(w, a, '/kit starter')[0]).toMatchObject({
    eventName: 'slashCommand',
    metadata: { command: '/kit starter', characterId: a.characterId, playerName: a.player.name },
  });
  expect(typedLine(w, a, 'cheat scriptcommand daily')[0].eventName).toBe('scriptCommand');
  expect(typedLine(w, a, 'hello')[0]).toMatchObject({
    eventName: 'chat',
    metadata: { originalMessage: 'hello' },
  });
  // Players type commands on their own in a long enough run.
  const names = new Set<string>();
  for (let i = 0; i < 400; i++)
    for (const behave of BEHAVIOURS) for (const e of behave(w)) names.add(e.eventName);
  expect(names).toContain('slashCommand');
});

it("obeys the scripts' commands and changes the world", () => {
  const { w, a, b } = world();
  const stone = '/Game/Items/Stone.Stone_C';
  runCommand(w, { type: 'giveItem', characterId: a.characterId, itemPath: stone, quantity: 4 });
  runCommand(w, { type: 'giveItem', characterId: b.characterId, itemPath: stone, quantity: 2 });
  expect(runCommand(w, { type: 'destroyItem', itemPath: stone }).reply).toEqual({
    ok: true,
    result: { destroyed: 6 },
  });
  expect(a.inventory.size + b.inventory.size).toBe(0);

  const loot = runCommand(w, {
    type: 'giveLoot',
    recipientType: 'Tribe',
    tribeId: a.tribeId,
    items: [{ itemPath: '/Game/Items/Metal.Metal_C', quantity: 3 }],
  });
  expect(loot.events.map((e) => e.eventName)).toEqual(['itemGiven', 'itemGiven']);
  expect(b.inventory.get('/Game/Items/Metal.Metal_C')).toBe(3);

  const died = runCommand(w, { type: 'killCharacter', characterId: b.characterId });
  expect(died.events[0]).toMatchObject({ eventName: 'playerDied', metadata: { attacker: 'an admin' } });
  expect(b.inventory.size).toBe(0);

  expect(
    runCommand(w, { type: 'toggleBuff', characterId: a.characterId, mode: 'toggle', buffPath: 'Cold' })
      .events[0],
  ).toMatchObject({ eventName: 'playerBuffsChanged', metadata: { buffsAdded: ['Cold'] } });
  expect(
    runCommand(w, { type: 'toggleBuff', characterId: a.characterId, mode: 'add', buffPath: 'Cold' }).events,
  ).toEqual([]);
  expect(
    runCommand(w, { type: 'toggleBuff', characterId: a.characterId, mode: 'flip', buffPath: 'Cold' }).reply
      .ok,
  ).toBe(false);

  const from = { ...a.pos };
  runCommand(w, {
    type: 'teleportCharacter',
    characterId: a.characterId,
    x: 1,
    y: -1,
    z: 100,
    relative: true,
  });
  expect(a.pos).toEqual({ x: from.x + 1, y: from.y - 1, z: from.z + 100 });

  const chat = runCommand(w, { type: 'chat', message: 'hi', senderName: 'Bot', source: 'Script' });
  expect(chat.events[0].metadata).toMatchObject({ source: 'Script', senderName: 'Bot' });
  expect(runCommand(w, { type: 'chat', message: 'hi' }).events[0].metadata.source).toBe('WebService');
});
