// Every route of SENTINEL-API × role: the owner, a group member holding exactly the needed bits, a
// member holding every bit but those, a stranger and an anonymous caller. Each row proves the
// allow and each refusal with its status and code. Adding a route is one row in ROUTES.
//
// Members get their bits through two groups the owner made, whose links allow every bit, so the
// member's own bits are what decide. Actions that reach the game answer 412 serviceNotConnected
// when allowed (no game server is connected here): the permission check comes first.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '../../src/domain/permissions.ts';
import { hashPassword } from '../../src/server/crypto.ts';
import { call, DEMO, signIn, startTestServer, type TestServer } from './helpers.ts';

const ALL = 16383;
type Fx = Record<string, string>;
type Outcome = { status: number | number[]; code?: string; hidden?: true };
/** 'any' = anyone signed in; 'owner' = no group bit is enough. */
type Needs = number | 'any' | 'owner';

interface Route {
  method: string;
  path: (f: Fx) => string;
  needs: Needs;
  ok: number | number[];
  stranger: Outcome;
  /** Defaults to forbidden. */
  lacking?: Outcome;
  body?: (f: Fx, n: number) => unknown;
  /** Makes what the call changes or removes; gets a fresh id into f.fresh. */
  prepare?: (f: Fx) => Promise<string>;
  /** A list whose results include f[key] for an allowed caller and not for a refused one. */
  lists?: string;
  anonymous?: Outcome;
}

const forbidden: Outcome = { status: 403, code: 'forbidden' };
const objectNotFound: Outcome = { status: 404, code: 'objectNotFound' };
const notFound: Outcome = { status: 404, code: 'notFound' };
const hidden: Outcome = { status: 200, hidden: true };
const offline = 412;

let t: TestServer;
const f: Fx = {};
const tokens: Record<'owner' | 'member' | 'stranger', string> = { owner: '', member: '', stranger: '' };
let counter = 0;
const q = (sql: string, params: unknown[] = []) => t.server.db.query<{ id: string }>(sql, params);
const one = async (sql: string, params: unknown[] = []) => (await q(sql, params)).rows[0].id;

/** Takes a resource out of the first group, so it can be added again; no fresh id. */
async function unlink(table: string, column: string, id: string): Promise<string> {
  await q(`DELETE FROM ${table} WHERE group_id = $1 AND ${column} = $2`, [f.group, id]);
  return '';
}

const SCRIPT_EVENTS = [
  { language: 'Simple', context: 'serviceScriptRun', code: '{}', keyword: 'Restart', arguments: [] },
  { language: 'Simple', context: 'playerJoined', code: '{}' },
];

const ROUTES: Route[] = [
  // groups
  {
    method: 'GET',
    path: () => '/sentinel/groups',
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
    lists: 'group',
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/groups/${x.group}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'POST',
    path: () => '/sentinel/groups',
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    body: (_x, n) => ({ name: `Made ${n}` }),
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/groups/${x.group}`,
    needs: Perm.EditGroup,
    ok: 200,
    stranger: objectNotFound,
    body: () => ({ color: 'Red' }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/groups/${x.fresh}`,
    needs: Perm.EditGroup,
    ok: 204,
    stranger: forbidden,
    prepare: async (x) => {
      const id = await one(`INSERT INTO groups (user_id, name) VALUES ($1, $2) RETURNING group_id AS id`, [
        x.owner,
        `Temp ${++counter}`,
      ]);
      await q(
        'INSERT INTO group_users (group_id, user_id, permissions) SELECT $1, user_id, permissions FROM group_users WHERE group_id = $2',
        [id, x.group],
      );
      return id;
    },
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/groups/${x.group}/discordChatChannels`,
    needs: Perm.Membership,
    ok: 200,
    stranger: notFound,
  },
  {
    method: 'GET',
    path: () => `/sentinel/userLookup?query=${encodeURIComponent('moderator@palisade.local')}`,
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
  },
  // group users
  {
    method: 'GET',
    path: (x) => `/sentinel/groupUsers?groupId=${x.group}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
    lists: 'otherMembership',
  },
  {
    method: 'POST',
    path: () => '/sentinel/groupUsers',
    needs: Perm.ManageUsers,
    ok: 200,
    stranger: forbidden,
    prepare: async () =>
      one(
        `INSERT INTO users (username, email, password_hash) VALUES ('U', $1, 'x') RETURNING user_id AS id`,
        [`u${++counter}@x.local`],
      ),
    body: (x) => ({ groupId: x.group, userId: x.fresh, permissions: 1 }),
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/groupUsers/${x.otherMembership}`,
    needs: Perm.ManageUsers,
    ok: 200,
    stranger: objectNotFound,
    body: () => ({ permissions: 1 }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/groupUsers/${x.fresh}`,
    needs: Perm.ManageUsers,
    ok: 204,
    stranger: forbidden,
    prepare: async (x) => {
      const user = await one(
        `INSERT INTO users (username, email, password_hash) VALUES ('U', $1, 'x') RETURNING user_id AS id`,
        [`u${++counter}@x.local`],
      );
      return one(
        'INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, 1) RETURNING group_user_id AS id',
        [x.group, user],
      );
    },
  },
  // group links: the resource comes from the second group, where the member has the same bits
  {
    method: 'GET',
    path: (x) => `/sentinel/groupServices?groupId=${x.group}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: forbidden,
    lists: 'groupService',
  },
  {
    method: 'POST',
    path: () => '/sentinel/groupServices',
    needs: Perm.ManageServices | Perm.ShareServices,
    ok: 200,
    stranger: forbidden,
    prepare: (x) => unlink('group_services', 'service_id', x.s2),
    body: (x) => ({ groupId: x.group, serviceId: x.s2, permissionsMask: 1 }),
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/groupServices/${x.fresh}`,
    needs: Perm.ManageServices | Perm.ShareServices,
    ok: 200,
    stranger: objectNotFound,
    // A link of its own, so the fixture's keeps every bit; widened no further than the member holds
    // on the server (docs/api.md "Groups and their users, services, buckets and scripts").
    prepare: (x) =>
      one(
        `INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, 1)
      ON CONFLICT (group_id, service_id) DO UPDATE SET permissions_mask = 1 RETURNING group_service_id AS id`,
        [x.group, x.s2],
      ),
    body: () => ({ permissionsMask: Perm.Membership | Perm.ShareServices }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/groupServices/${x.fresh}`,
    needs: Perm.ManageServices | Perm.ShareServices,
    ok: 204,
    stranger: forbidden,
    prepare: (x) =>
      one(
        `INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, 1)
      ON CONFLICT (group_id, service_id) DO UPDATE SET permissions_mask = 1 RETURNING group_service_id AS id`,
        [x.group, x.s2],
      ),
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/groupBuckets?groupId=${x.group}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: forbidden,
    lists: 'groupBucket',
  },
  {
    method: 'POST',
    path: () => '/sentinel/groupBuckets',
    needs: Perm.ManageBuckets | Perm.ShareBuckets,
    ok: 200,
    stranger: forbidden,
    prepare: (x) => unlink('group_buckets', 'bucket_id', x.b2),
    body: (x) => ({ groupId: x.group, bucketId: x.b2, permissionsMask: 1 }),
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/groupScripts?groupId=${x.group}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: forbidden,
    lists: 'groupScript',
  },
  {
    method: 'POST',
    path: () => '/sentinel/groupScripts',
    needs: Perm.ManageScripts | Perm.ShareScripts,
    ok: 200,
    stranger: forbidden,
    body: (x, n) => ({ groupId: x.group, scriptId: x.script2, permissionsMask: 1, parameterValues: { n } }),
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/groupScripts/${x.groupScript}`,
    needs: Perm.ManageScripts,
    ok: 200,
    stranger: objectNotFound,
    body: () => ({ permissionsMask: ALL }),
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/serviceScripts?serviceId=${x.s0}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: forbidden,
    lists: 'serviceScript',
  },
  {
    method: 'POST',
    path: () => '/sentinel/serviceScripts',
    needs: Perm.ManageScripts | Perm.ShareScripts,
    ok: 200,
    stranger: forbidden,
    body: (x, n) => ({ serviceId: x.s0, scriptId: x.script2, parameterValues: { n } }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/serviceScripts/${x.fresh}`,
    needs: Perm.ManageScripts,
    ok: 204,
    stranger: forbidden,
    prepare: (x) =>
      one(
        `INSERT INTO service_scripts (service_id, script_id, parameter_values, attached_by) VALUES ($1, $2, $3, $4)
         RETURNING service_script_id AS id`,
        [x.s0, x.script2, JSON.stringify({ n: ++counter }), x.owner],
      ),
  },
  // buckets
  {
    method: 'GET',
    path: () => '/sentinel/buckets',
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
    lists: 'bucket',
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/buckets/${x.bucket}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'POST',
    path: () => '/sentinel/buckets',
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    body: (_x, n) => ({ name: `Bucket ${n}` }),
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/buckets/${x.bucket}`,
    needs: Perm.EditBuckets,
    ok: 200,
    stranger: objectNotFound,
    body: (_x, n) => ({ name: `Renamed ${n}` }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/buckets/${x.fresh}`,
    needs: Perm.EditBuckets,
    ok: 204,
    stranger: forbidden,
    prepare: async (x) => {
      const id = await one('INSERT INTO buckets (user_id, name) VALUES ($1, $2) RETURNING bucket_id AS id', [
        x.owner,
        `Temp ${++counter}`,
      ]);
      await q(`INSERT INTO group_buckets (group_id, bucket_id, permissions_mask) VALUES ($1, $2, ${ALL})`, [
        x.group,
        id,
      ]);
      return id;
    },
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/bucketValues?bucketId=${x.bucket}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: forbidden,
    lists: 'bucketValue',
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/bucketValues/${x.bucketValue}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'POST',
    path: () => '/sentinel/bucketValues',
    needs: Perm.EditBuckets,
    ok: 200,
    stranger: forbidden,
    body: (x, n) => ({ bucketId: x.bucket, key: `k${n}`, value: 'v' }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/bucketValues/${x.fresh}`,
    needs: Perm.EditBuckets,
    ok: 204,
    stranger: forbidden,
    prepare: (x) =>
      one(
        `INSERT INTO bucket_values (bucket_id, key, value) VALUES ($1, $2, 'v') RETURNING bucket_value_id AS id`,
        [x.bucket, `d${++counter}`],
      ),
  },
  // scripts
  {
    method: 'GET',
    path: () => '/sentinel/scripts',
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
    lists: 'script',
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/scripts/${x.script}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'POST',
    path: () => '/sentinel/scripts',
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    body: (_x, n) => ({ name: `Script ${n}`, events: SCRIPT_EVENTS }),
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/scripts/${x.script}`,
    needs: Perm.EditScripts,
    ok: 200,
    stranger: objectNotFound,
    body: (_x, n) => ({ description: `v${n}` }),
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/scripts/${x.fresh}`,
    needs: Perm.EditScripts,
    ok: 204,
    stranger: forbidden,
    prepare: async (x) => {
      const id = await one('INSERT INTO scripts (user_id, name) VALUES ($1, $2) RETURNING script_id AS id', [
        x.owner,
        `Temp ${++counter}`,
      ]);
      await q(
        `INSERT INTO group_scripts (group_id, script_id, permissions_mask, attached_by) VALUES ($1, $2, ${ALL}, $3)`,
        [x.group, id, x.owner],
      );
      return id;
    },
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/scripts/${x.script}/revisions`,
    needs: Perm.Membership,
    ok: 200,
    stranger: notFound,
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/scripts/${x.script}/publish`,
    needs: 'owner',
    ok: 200,
    stranger: { status: 404, code: 'scriptNotFound' },
    lacking: { status: 404, code: 'scriptNotFound' },
  },
  {
    method: 'DELETE',
    path: (x) => `/sentinel/scripts/${x.script}/publish`,
    needs: 'owner',
    ok: 200,
    stranger: { status: 404, code: 'scriptNotFound' },
    lacking: { status: 404, code: 'scriptNotFound' },
  },
  {
    method: 'PUT',
    path: (x) => `/sentinel/scripts/${x.community}/like`,
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    body: () => ({ liked: true }),
  },
  {
    method: 'GET',
    path: () => '/sentinel/communityScripts',
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    lists: 'community',
  },
  {
    method: 'POST',
    path: () => '/sentinel/scriptTests',
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    body: () => ({ context: 'playerJoined', language: 'Simple', code: '{}' }),
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/scriptMenuItems?serviceId=${x.s0}&context=serviceScriptRun`,
    needs: Perm.ControlServices,
    ok: 200,
    stranger: hidden,
    lacking: hidden,
    lists: 'menuEvent',
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/scriptMenuItems/${x.menuEvent}`,
    needs: Perm.ControlServices,
    ok: 204,
    stranger: { status: 404, code: 'serviceNotFound' },
    body: (x) => ({ serviceId: x.s0 }),
  },
  // actions that reach the game
  {
    method: 'POST',
    path: (x) => `/sentinel/dinos/${x.dino}/locate`,
    needs: Perm.ControlServices,
    ok: offline,
    stranger: notFound,
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/dinos/${x.dino}/edit`,
    needs: Perm.ControlServices,
    ok: offline,
    stranger: notFound,
    body: () => ({ isFemale: true }),
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/dinos/${x.deadDino}/restore`,
    needs: Perm.ControlServices,
    ok: offline,
    stranger: notFound,
    body: (x) => ({ characterId: x.character }),
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/characters/${x.character}/locate`,
    needs: Perm.ControlServices,
    ok: offline,
    stranger: notFound,
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/characters/${x.character}/giveItem`,
    needs: Perm.ControlServices,
    ok: offline,
    stranger: notFound,
    body: () => ({ itemPath: '/Game/A/B.B_C', quantity: 1 }),
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/characters/${x.character}/giveDino`,
    needs: Perm.ControlServices,
    ok: offline,
    stranger: notFound,
    body: () => ({ dinoPath: '/Game/Rex.Rex_C' }),
  },
  // routes of the other class paths
  {
    method: 'GET',
    path: () => '/sentinel/services',
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
    lists: 's0',
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/services/${x.s0}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/services/${x.s0}`,
    needs: Perm.EditServices,
    ok: 200,
    stranger: objectNotFound,
    body: () => ({ color: 'Blue' }),
  },
  {
    method: 'POST',
    path: (x) => `/sentinel/services/${x.s0}/accessKey`,
    needs: Perm.EditServices,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/logMessages?serviceId=${x.s0}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/serviceUsers?serviceId=${x.s0}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
  },
  {
    method: 'GET',
    path: () => '/sentinel/dinos',
    needs: Perm.Membership,
    ok: 200,
    stranger: hidden,
    lists: 'dino',
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/dinos/${x.dino}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/characters/${x.character}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: objectNotFound,
  },
  {
    method: 'PATCH',
    path: (x) => `/sentinel/dinos/${x.dino}`,
    needs: Perm.ControlServices,
    ok: 200,
    stranger: objectNotFound,
    body: () => ({ dinoStatus: 'Deployed' }),
  },
  {
    method: 'POST',
    path: () => '/sentinel/gameCommands',
    needs: Perm.ControlServices,
    ok: [204, offline],
    stranger: forbidden,
    body: (x) => ({ type: 'admin', serviceId: x.s0, command: 'listplayers' }),
  },
  {
    method: 'POST',
    path: () => '/sentinel/chat',
    needs: Perm.Membership,
    ok: [204, offline],
    stranger: forbidden,
    body: (x) => ({ serviceId: x.s0, message: 'hello' }),
  },
  {
    method: 'GET',
    path: (x) => `/sentinel/groupBans?groupId=${x.group}`,
    needs: Perm.Membership,
    ok: 200,
    stranger: forbidden,
  },
  { method: 'GET', path: () => '/sentinel/players', needs: 'any', ok: 200, stranger: { status: 200 } },
  {
    method: 'GET',
    path: (x) => `/sentinel/services/${x.s0}/bans.txt`,
    needs: 'any',
    ok: 200,
    stranger: { status: 200 },
    anonymous: { status: 200 },
  },
];

async function setBits(bits: number) {
  await q('UPDATE group_users SET permissions = $1 WHERE user_id = $2', [bits, f.member]);
}

beforeAll(async () => {
  t = await startTestServer();
  const [s0, s1, s2] = t.demo.servers.map((s) => s.serviceId);
  Object.assign(f, {
    owner: t.demo.userId,
    member: t.demo.moderator.userId,
    group: t.demo.groupId,
    s0,
    s1,
    s2,
  });
  f.stranger = await one(
    `INSERT INTO users (username, email, password_hash) VALUES ('Stranger', 'stranger@x.local', $1) RETURNING user_id AS id`,
    [await hashPassword('stranger-pass')],
  );
  await q('UPDATE group_services SET permissions_mask = $1 WHERE group_id = $2', [ALL, f.group]);
  f.groupService = await one(
    'SELECT group_service_id AS id FROM group_services WHERE group_id = $1 AND service_id = $2',
    [f.group, s0],
  );
  // The second group holds what the member may share into the first.
  f.group2 = await one(`INSERT INTO groups (user_id, name) VALUES ($1, 'Second') RETURNING group_id AS id`, [
    f.owner,
  ]);
  await q('INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, 1)', [
    f.group2,
    f.member,
  ]);
  await q(`INSERT INTO group_services (group_id, service_id, permissions_mask) VALUES ($1, $2, ${ALL})`, [
    f.group2,
    s2,
  ]);
  const other = await one(
    `INSERT INTO users (username, email, password_hash) VALUES ('Other', 'other@x.local', 'x') RETURNING user_id AS id`,
  );
  f.otherMembership = await one(
    'INSERT INTO group_users (group_id, user_id, permissions) VALUES ($1, $2, 1) RETURNING group_user_id AS id',
    [f.group, other],
  );

  f.bucket = await one(
    `INSERT INTO buckets (user_id, name) VALUES ($1, 'Shared') RETURNING bucket_id AS id`,
    [f.owner],
  );
  f.groupBucket = await one(
    `INSERT INTO group_buckets (group_id, bucket_id, permissions_mask) VALUES ($1, $2, ${ALL}) RETURNING group_bucket_id AS id`,
    [f.group, f.bucket],
  );
  f.bucketValue = await one(
    `INSERT INTO bucket_values (bucket_id, key, value) VALUES ($1, 'motd', 'hi') RETURNING bucket_value_id AS id`,
    [f.bucket],
  );
  f.b2 = await one(`INSERT INTO buckets (user_id, name) VALUES ($1, 'Second') RETURNING bucket_id AS id`, [
    f.owner,
  ]);
  await q(`INSERT INTO group_buckets (group_id, bucket_id, permissions_mask) VALUES ($1, $2, ${ALL})`, [
    f.group2,
    f.b2,
  ]);

  tokens.owner = (await signIn(t.base)).access_token;
  const made = await call(t.base, tokens.owner, 'POST', '/sentinel/scripts', [
    { name: 'Restarter', events: SCRIPT_EVENTS },
    { name: 'Shareable' },
    { name: 'Community pick' },
  ]);
  [f.script, f.script2, f.community] = made.body.created.map((s: { scriptId: string }) => s.scriptId);
  f.groupScript = await one(
    `INSERT INTO group_scripts (group_id, script_id, permissions_mask, attached_by) VALUES ($1, $2, ${ALL}, $3)
     RETURNING group_script_id AS id`,
    [f.group, f.script, f.owner],
  );
  await q(
    `INSERT INTO group_scripts (group_id, script_id, permissions_mask, attached_by) VALUES ($1, $2, ${ALL}, $3)`,
    [f.group2, f.script2, f.owner],
  );
  f.serviceScript = await one(
    'INSERT INTO service_scripts (service_id, script_id, attached_by) VALUES ($1, $2, $3) RETURNING service_script_id AS id',
    [s0, f.script, f.owner],
  );
  await q(`UPDATE scripts SET community_status = 'Approved' WHERE script_id = $1`, [f.community]);
  f.menuEvent = await one(
    `SELECT script_event_id AS id FROM script_events e JOIN scripts s ON s.latest_revision_id = e.revision_id
    WHERE s.script_id = $1 AND e.context = 'serviceScriptRun'`,
    [f.script],
  );

  const player = await one(`INSERT INTO players (name) VALUES ('P') RETURNING player_id AS id`);
  f.character = await one(
    'INSERT INTO characters (service_id, player_id, specimen_id, name) VALUES ($1, $2, 1, $3) RETURNING character_id AS id',
    [s0, player, 'C'],
  );
  f.dino = await one(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path) VALUES ($1, 1, 'Rex', '/Game/Rex') RETURNING dino_id AS id`,
    [s0],
  );
  f.deadDino = await one(
    `INSERT INTO dinos (service_id, dino_number64, species, species_path, status, restore_data)
    VALUES ($1, 2, 'Rex', '/Game/Rex', 'Dead', '{}') RETURNING dino_id AS id`,
    [s0],
  );

  tokens.member = (await signIn(t.base, t.demo.moderator.email, DEMO.password)).access_token;
  tokens.stranger = (await signIn(t.base, 'stranger@x.local', 'stranger-pass')).access_token;
});
afterAll(() => t?.close());

const statuses = (s: number | number[]) => (Array.isArray(s) ? s : [s]);

async function attempt(route: Route, token: string | null, expected: Outcome) {
  if (route.prepare) f.fresh = await route.prepare(f);
  const r = await call(t.base, token, route.method, route.path(f), route.body?.(f, ++counter));
  const what = `${route.method} ${route.path(f)}`;
  expect(statuses(expected.status), `${what} → ${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
  if (expected.code) expect(r.body?.code, what).toBe(expected.code);
  if (route.lists && r.status === 200) {
    const list: unknown[] = Array.isArray(r.body) ? r.body : r.body.results;
    const found = JSON.stringify(list).includes(f[route.lists]);
    expect(found, `${what} lists ${route.lists}`).toBe(!expected.hidden);
  }
  if (expected.status === 401)
    expect(r.body).toMatchObject({ type: 'beacon.error', message: 'Unauthorized' });
}

const label = (r: Route) =>
  `${r.method} ${r.path(new Proxy({}, { get: (_o, k) => `{${String(k)}}` }) as Fx)}`;

describe.each(ROUTES.map((r) => [label(r), r] as const))('%s', (_name, route) => {
  it('owner: allowed', async () => {
    await attempt(route, tokens.owner, { status: route.ok });
  });
  it('member with exactly the needed bits: allowed', async (ctx) => {
    if (route.needs === 'owner') return ctx.skip();
    await setBits(route.needs === 'any' ? 1 : 1 | route.needs);
    await attempt(route, tokens.member, { status: route.ok });
  });
  it('member with every bit but those: refused', async (ctx) => {
    if (route.needs === 'any' || route.needs === Perm.Membership) return ctx.skip();
    await setBits(route.needs === 'owner' ? ALL : ALL & ~route.needs);
    await attempt(route, tokens.member, route.lacking ?? forbidden);
  });
  it('stranger: refused', async () => {
    await attempt(route, tokens.stranger, route.stranger);
  });
  it('anonymous: 401', async () => {
    await attempt(route, null, route.anonymous ?? { status: 401 });
  });
});
