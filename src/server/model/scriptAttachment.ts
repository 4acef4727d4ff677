// A script attached to a group (/sentinel/groupScripts) or to a service (/sentinel/serviceScripts),
// SENTINEL-API §3.6: one declaration with the holder as its parameter. Attaching needs
// ManageScripts on the holder and ShareScripts on the script, or the script being an approved
// community script (origin "Community"); changing or detaching needs ManageScripts on the holder.
// The attacher is kept: the script's runs there act with their rights, never the author's.

import { channelFor } from '../../domain/api.ts';
import { Perm } from '../../domain/permissions.ts';
import type { Queryable } from '../db/db.ts';
import { badRequest } from '../http/errors.ts';
import { type ClassSpec, type Field, parse, type Row, requireFilter } from './classPath.ts';
import { canSee, holdsAllEach } from './permissions.ts';
import { epoch } from './service.ts';

interface Holder {
  kind: 'group' | 'service';
  path: string;
  table: string;
  idProp: string;
  idColumn: string;
  holderProp: string;
  /** JSON name → SQL over the holder alias `h`. */
  columns: Record<string, string>;
  /** Holder filters (exact) and their sorts. */
  exact: Record<string, string>;
  ilike: Record<string, string>;
  sorts: Record<string, string>;
  join: string;
  fields: Record<string, Field>;
}

const HOLDERS: Record<'group' | 'service', Holder> = {
  group: {
    kind: 'group',
    path: '/sentinel/groupScripts',
    table: 'group_scripts',
    idProp: 'groupScriptId',
    idColumn: 'group_script_id',
    holderProp: 'groupId',
    columns: { groupId: 'x.group_id', groupName: 'h.name', permissionsMask: 'x.permissions_mask' },
    exact: { groupId: 'x.group_id' },
    ilike: {},
    sorts: {},
    join: 'JOIN groups h ON h.group_id = x.group_id',
    fields: {
      groupId: { column: 'group_id', write: 'create', required: true, parse: parse.uuid },
      permissionsMask: { column: 'permissions_mask', write: 'edit', required: true, parse: parse.mask },
      parameterValues: { column: 'parameter_values', write: 'edit', parse: parse.object, cast: '::jsonb' },
    },
  },
  service: {
    kind: 'service',
    path: '/sentinel/serviceScripts',
    table: 'service_scripts',
    idProp: 'serviceScriptId',
    idColumn: 'service_script_id',
    holderProp: 'serviceId',
    columns: {
      serviceId: 'x.service_id',
      serviceDisplayName: 'coalesce(h.nickname, h.name)',
      serviceColor: 'h.color',
    },
    exact: { serviceId: 'x.service_id' },
    ilike: { serviceDisplayName: 'coalesce(h.nickname, h.name)' },
    sorts: { serviceDisplayName: 'lower(coalesce(h.nickname, h.name))' },
    join: 'JOIN services h ON h.service_id = x.service_id AND NOT h.deleted',
    fields: {
      serviceId: { column: 'service_id', write: 'create', required: true, parse: parse.uuid },
      parameterValues: {
        column: 'parameter_values',
        write: 'edit',
        required: true,
        parse: parse.object,
        cast: '::jsonb',
      },
    },
  },
};

/**
 * For each script, its newest revision when its author is not `userId` (the version an attachment
 * kept updated accepts when made), else null: one's own script follows every approved version.
 */
async function othersLatest(tx: Queryable, scriptIds: unknown[], userId: string): Promise<(string | null)[]> {
  const { rows } = await tx.query<{ id: string; latest: string | null }>(
    'SELECT script_id AS id, latest_revision_id AS latest FROM scripts WHERE script_id = ANY($1::uuid[]) AND user_id <> $2',
    [scriptIds, userId],
  );
  const latest = new Map(rows.map((r) => [r.id, r.latest]));
  return scriptIds.map((id) => latest.get(id as string) ?? null);
}

/** Approved community scripts may be attached by anyone managing the holder; one query for all. */
async function areCommunity(tx: Queryable, scriptIds: unknown[]): Promise<boolean[]> {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT script_id AS id FROM scripts
      WHERE script_id = ANY($1::uuid[]) AND community_status = 'Approved' AND NOT deleted`,
    [scriptIds],
  );
  const approved = new Set(rows.map((r) => r.id));
  return scriptIds.map((id) => approved.has(id as string));
}

const scriptsOf = (rows: Record<string, unknown>[]) => rows.map((r) => r.script_id);

export function scriptAttachment(kind: 'group' | 'service'): ClassSpec {
  const h = HOLDERS[kind];
  const holdersOf = (rows: Record<string, unknown>[]) => rows.map((r) => r[`${kind}_id`]);
  const holderCols = Object.entries(h.columns)
    .map(([k, v]) => `${v} AS "${k}"`)
    .join(', ');
  return {
    path: h.path,
    idProp: h.idProp,
    table: h.table,
    idColumn: h.idColumn,
    columns: `x.${h.idColumn} AS "${h.idProp}", ${holderCols}, x.script_id AS "scriptId", sc.name AS "scriptName",
      x.parameter_values AS "parameterValues", x.revision_id AS "revisionId",
      x.accepted_revision_id AS "acceptedRevisionId", x.webhook_secret IS NOT NULL AS "hasWebhook",
      CASE WHEN x.revision_id IS NULL AND x.accepted_revision_id <> sc.latest_revision_id
           THEN sc.latest_revision_id END AS "pendingRevisionId",
      ${epoch('r.date_created')} AS "revisionDate", x.origin,
      ARRAY(SELECT DISTINCT e.context FROM script_events e
             WHERE e.revision_id = coalesce(x.revision_id, x.accepted_revision_id, sc.latest_revision_id)
             ORDER BY 1) AS contexts,
      coalesce(lr.approval_status, 'Approved') AS "approvalStatus", sc.community_status AS "communityStatus"`,
    from: () => `${h.table} x ${h.join} JOIN scripts sc ON sc.script_id = x.script_id AND NOT sc.deleted
      LEFT JOIN script_revisions r ON r.revision_id = x.revision_id
      LEFT JOIN script_revisions lr ON lr.revision_id = sc.latest_revision_id`,
    visible: (user) => `(${canSee(kind, `x.${kind}_id`, user)} OR ${canSee('script', 'x.script_id', user)})`,
    listWhere: requireFilter(
      [
        { key: h.holderProp, kind },
        { key: 'scriptId', kind: 'script' },
      ],
      `Filter by ${h.holderProp} or scriptId.`,
    ),
    list: {
      id: { param: h.idProp, expr: `x.${h.idColumn}` },
      filters: {
        ...Object.fromEntries(
          Object.entries(h.exact).map(([k, e]) => [
            k,
            { kind: 'exact' as const, expr: e, type: 'uuid' as const },
          ]),
        ),
        ...Object.fromEntries(
          Object.entries(h.ilike).map(([k, e]) => [k, { kind: 'ilike' as const, exprs: [e] }]),
        ),
        scriptId: { kind: 'exact', expr: 'x.script_id', type: 'uuid' },
        scriptName: { kind: 'ilike', exprs: ['sc.name'] },
      },
      sorts: { scriptName: 'lower(sc.name)', ...h.sorts },
      defaultSort: 'scriptName',
      tiebreak: `x.${h.idColumn}`,
    },
    fields: {
      ...h.fields,
      scriptId: { column: 'script_id', write: 'create', required: true, parse: parse.uuid },
      revisionId: { column: 'revision_id', write: 'edit', parse: parse.uuidOrNull },
      acceptedRevisionId: { column: 'accepted_revision_id', write: 'edit', parse: parse.uuidOrNull },
    },
    // The attacher's rights are the ones its runs act with (scripts/handlers.ts). Someone else's
    // script kept updated runs the version accepted: the newest now, later ones once accepted.
    derive: async (tx, userId, values) => {
      const community = await areCommunity(tx, scriptsOf(values));
      const latest = await othersLatest(tx, scriptsOf(values), userId);
      return values.map((v, i) => ({
        origin: community[i] ? 'Community' : 'Direct',
        attached_by: userId,
        ...(v.revision_id == null && v.accepted_revision_id == null
          ? { accepted_revision_id: latest[i] }
          : {}),
      }));
    },
    canCreate: async (tx, userId, values) => {
      const manages = await holdsAllEach(tx, kind, holdersOf(values), userId, Perm.ManageScripts);
      const shares = await holdsAllEach(tx, 'script', scriptsOf(values), userId, Perm.ShareScripts);
      const community = await areCommunity(tx, scriptsOf(values));
      return manages.map((ok, i) => ok && (shares[i] || community[i]));
    },
    canChange: (tx, userId, rows) => holdsAllEach(tx, kind, holdersOf(rows), userId, Perm.ManageScripts),
    afterWrite: async (tx, rows: Row[]) => {
      const named = rows.flatMap((r) =>
        (['revision_id', 'accepted_revision_id'] as const)
          .filter((c) => r[c] !== null && r[c] !== undefined)
          .map((c) => ({ revision: r[c] as string, script: r.script_id as string })),
      );
      if (named.length === 0) return;
      const { rows: found } = await tx.query<{ id: string }>(
        `SELECT r.revision_id AS id FROM unnest($1::uuid[], $2::uuid[]) AS p(revision_id, script_id)
           JOIN script_revisions r ON r.revision_id = p.revision_id AND r.script_id = p.script_id`,
        [named.map((n) => n.revision), named.map((n) => n.script)],
      );
      const ok = new Set(found.map((r) => r.id));
      const wrong = named.find((n) => !ok.has(n.revision));
      if (wrong)
        throw badRequest('notFound', 'That version does not belong to this script.', {
          revisionId: wrong.revision,
        });
    },
    // A group's page lists its scripts live, as it does its members, servers and buckets.
    notify: async (_tx, rows) =>
      kind === 'group'
        ? rows.map((row) => ({
            channels: [channelFor('groups', String(row.group_id))],
            event: 'groupUpdated',
            data: row.group_id,
          }))
        : [],
  };
}
