// What the generic class paths for survivors, tribes and dinos (SENTINEL-API §3.9–3.11) need to
// know about one of them: its JSON columns, where it lives, how it is listed, what may be edited
// and what a delete takes with it. The rows are visible through the caller's services
// (`sp`, the caller's service_permissions row), joined in `from`.

import { UUID } from '../../domain/constants.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import type { Filter, ListSpec } from '../http/listQuery.ts';

export interface EditableField {
  column: string;
  values: readonly string[];
}

export interface WorldClass {
  /** `/sentinel/characters` … */
  path: string;
  /** JSON id property and path variable. */
  idProp: string;
  table: string;
  alias: string;
  idColumn: string;
  /** The JSON columns; `user` is the caller's id parameter. */
  columns: (user: string) => string;
  /** FROM with joins, visible to the caller (`user`). */
  from: (user: string) => string;
  /** FROM for counting (ListSource.countFrom): no filter may use the joins `from` adds to it. */
  countFrom?: (user: string) => string;
  /** Exact totals up to this many matches, estimates beyond (ListSource.exactCountUpTo). */
  exactCountUpTo?: number;
  /** ListSource.countFirst. */
  countFirst?: boolean;
  list: ListSpec;
  /**
   * Filters that read the database before the list is planned (their answers kept in
   * ctx.reads), replacing the list's own for this request: `query` is the request's.
   */
  resolveFilters?: (ctx: ServerContext, query: URLSearchParams) => Promise<Record<string, Filter>>;
  editable: Record<string, EditableField>;
  /** Soft-deletes what goes with the rows (a tribe's survivors and dinos). */
  cascade?: (tx: Queryable, ids: string[]) => Promise<void>;
}

/** The caller's view of a service's rows, with their bits on it as `permissions`. */
export const visibleThrough = (alias: string, user: string) =>
  `JOIN service_permissions sp ON sp.service_id = ${alias}.service_id AND sp.user_id = ${user}::uuid
   JOIN services s ON s.service_id = ${alias}.service_id AND NOT s.deleted`;

/**
 * visibleThrough as a condition on the row's service, the caller's services read once (migration
 * 022): for counting, where the permissions are not shown. Written as array_position so that it
 * is a filter and never an index condition: as `service_id = ANY(…)` the planner guessed an
 * unknown array kept a fifth of the rows and ANDed the service index's million entries into a
 * species count's bitmap, 55-130 ms against 3 ms; an admin sees most of the rows anyway.
 */
export const visibleAsList = (alias: string, user: string) =>
  `JOIN services s ON s.service_id = ${alias}.service_id AND NOT s.deleted
     AND array_position((SELECT visible_services(${user}::uuid)), ${alias}.service_id) IS NOT NULL`;

/**
 * The caller's bits on the row's service for a class with a million rows, as a column rather than
 * a join: PostgreSQL works it out for the page's rows only, after the sort and the limit. Joined
 * as a set, the view made the planner read every visible dino and sort them (600 ms for the first
 * page of 100,000, migration 015); looked up row by row in a lateral join, a name search paid for
 * each of its matches before the page was cut. Visibility itself is visibleAsList in `from`.
 */
export const permissionsOf = (alias: string, user: string) =>
  `(SELECT permissions FROM service_permissions WHERE service_id = ${alias}.service_id AND user_id = ${user}::uuid)`;

/** The row's service as the JSON shows it, and the caller's bits on it (`sp`'s unless given). */
export const serviceColumns = (alias: string, permissions = 'sp.permissions') => `
  ${alias}.service_id AS "serviceId", coalesce(s.nickname, s.name) AS "serviceDisplayName",
  s.color AS "serviceColor", ${permissions} AS permissions`;

export const serviceFilters = (alias: string): Record<string, Filter> => ({
  serviceId: { kind: 'exact', expr: `${alias}.service_id`, type: 'uuid' },
  // Inside a group: the rows of each of its servers.
  groupId: uuidFilter(
    (id) => `${alias}.service_id IN (SELECT service_id FROM group_services WHERE group_id = ${id})`,
  ),
  serviceDisplayName: { kind: 'search', exprs: ['coalesce(s.nickname, s.name)'] },
});

/** A uuid filter whose value also matches a second place (a survivor's earlier tribes). */
export const uuidFilter = (sql: (param: string) => string): Filter => ({
  kind: 'custom',
  sql: (v, p) => (UUID.test(v) ? sql(`${p.add(v.toLowerCase())}::uuid`) : 'false'),
});
