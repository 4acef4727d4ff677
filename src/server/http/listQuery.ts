// Paged lists of SENTINEL-API §3.0, declared per class: filters (exact, comma list, ILIKE, SEARCH),
// `a|b` OR keys, `<idProp>[]=` id lists, sortedColumn/sortDirection, page/pageSize ≤ 250.

import type { Page } from '../../domain/api.ts';
import { PAGE_SIZE_MAX, UUID } from '../../domain/constants.ts';
import type { Queryable } from '../db/db.ts';

/** Positional parameters collected while SQL is assembled. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

type ValueType = 'text' | 'uuid' | 'int' | 'float';

export type Filter =
  /** Equality; a malformed uuid/number matches nothing rather than failing. */
  | { kind: 'exact'; expr: string; type?: ValueType }
  /** Comma-separated list of exact values. */
  | { kind: 'in'; expr: string; type?: ValueType }
  /** Case-insensitive contains, with % and _ taken literally. */
  | { kind: 'ilike'; exprs: string[] }
  /** English full-text (websearch syntax) or case-insensitive contains, over any of the columns. */
  | { kind: 'search'; exprs: string[] }
  | { kind: 'bool'; expr: string }
  | { kind: 'custom'; sql: (value: string, p: Params) => string };

export interface ListSpec {
  filters: Record<string, Filter>;
  /** sortedColumn → SQL expression; unknown names are ignored (§3.0). */
  sorts: Record<string, string>;
  defaultSort: string;
  defaultDirection?: 'ascending' | 'descending';
  /** A unique expression appended to every ORDER BY so pages never overlap. */
  tiebreak: string;
  /** `<idProp>[]=a&<idProp>[]=b` (and, fixing the quirk, scalar `<idProp>=a`). */
  id: { param: string; expr: string };
}

export interface ListPlan {
  where: string[];
  orderBy: string;
  page: number;
  pageSize: number;
}

const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

function typed(value: string, type: ValueType = 'text'): { ok: boolean; cast: string } {
  switch (type) {
    case 'uuid':
      return { ok: UUID.test(value), cast: '::uuid' };
    case 'int':
      return { ok: /^-?\d+$/.test(value), cast: '::bigint' };
    case 'float':
      return { ok: Number.isFinite(Number(value)) && value.trim() !== '', cast: '::float8' };
    default:
      return { ok: true, cast: '::text' };
  }
}

function filterSql(f: Filter, value: string, p: Params): string {
  switch (f.kind) {
    case 'exact': {
      const t = typed(value, f.type);
      return t.ok ? `${f.expr} = ${p.add(value)}${t.cast}` : 'false';
    }
    case 'in': {
      const items = value.split(',').map((v) => v.trim());
      const ok = items.filter((v) => typed(v, f.type).ok);
      return ok.length ? `${f.expr} = ANY(${p.add(ok)}${typed('', f.type).cast}[])` : 'false';
    }
    case 'ilike': {
      const like = p.add(escapeLike(value));
      return `(${f.exprs.map((e) => `${e} ILIKE ${like}`).join(' OR ')})`;
    }
    case 'search': {
      const q = p.add(value);
      const like = p.add(escapeLike(value));
      return `(${f.exprs
        .map(
          (e) =>
            `to_tsvector('english', coalesce(${e}, '')) @@ websearch_to_tsquery('english', ${q}) OR ${e} ILIKE ${like}`,
        )
        .join(' OR ')})`;
    }
    case 'bool':
      return value === 'true' ? f.expr : value === 'false' ? `NOT ${f.expr}` : 'false';
    case 'custom':
      return f.sql(value, p);
  }
}

export function planList(query: URLSearchParams, spec: ListSpec, p: Params): ListPlan {
  const where: string[] = [];
  const ids = [...query.getAll(`${spec.id.param}[]`), ...query.getAll(spec.id.param)];
  if (ids.length > 0)
    where.push(filterSql({ kind: 'in', expr: spec.id.expr, type: 'uuid' }, ids.join(','), p));

  for (const [key, value] of query) {
    if (key.endsWith('[]') || key === spec.id.param) continue;
    const names = key.split('|').filter((n) => spec.filters[n]);
    if (names.length === 0) continue;
    where.push(`(${names.map((n) => filterSql(spec.filters[n], value, p)).join(' OR ')})`);
  }

  const sortKey = query.get('sortedColumn') ?? '';
  const sort = spec.sorts[sortKey] ?? spec.sorts[spec.defaultSort];
  const dir = query.get('sortDirection') ?? spec.defaultDirection ?? 'ascending';
  const sqlDir = dir === 'descending' ? 'DESC' : 'ASC';

  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  const requested = Number.parseInt(query.get('pageSize') ?? '', 10);
  const pageSize = requested > 0 ? Math.min(requested, PAGE_SIZE_MAX) : PAGE_SIZE_MAX;
  return { where, orderBy: `${sort} ${sqlDir}, ${spec.tiebreak} ${sqlDir}`, page, pageSize };
}

export interface ListSource {
  /** The select list; its aliases are the JSON property names. */
  columns: string;
  /** FROM and joins. */
  from: string;
  /** FROM for counting, when the joins only add columns to show (so `where` must not use them). */
  countFrom?: string;
  /** Conditions always applied (visibility). */
  where: string[];
  /** Exact totals up to this many matches (default EXACT_COUNT_LIMIT), estimates beyond. */
  exactCountUpTo?: number;
}

/**
 * Counting every match costs more than the page itself once a table is big (a million log lines:
 * seconds per request). Up to this many the total is exact; beyond it, the planner's estimate.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * Where the planner expects this many times the exact limit, it is not counted at all: counting
 * the first thousand of 125,000 lines that name a common word took 3 ms on PGlite, three times
 * the page itself, to learn only that they were more than a thousand.
 */
const SURELY_PAST_LIMIT = 10;

async function countMatches(
  db: Queryable,
  from: string,
  whereSql: string,
  values: unknown[],
  upTo: number,
  atLeast: number,
) {
  const expected = await plannerEstimate(db, `SELECT 1 FROM ${from} ${whereSql}`, values);
  if (expected > upTo * SURELY_PAST_LIMIT) return { total: Math.max(atLeast, expected), estimated: true };
  const capped = await db.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} ${whereSql} LIMIT ${upTo + 1}) capped`,
    values,
  );
  const n = Number(capped.rows[0]?.n ?? 0);
  if (n <= upTo) return { total: n, estimated: false };
  return { total: Math.max(n, expected), estimated: true };
}

/** An estimate is no truer for being asked again: one per query for a while, for every reader. */
const ESTIMATE_KEEP_MS = 30_000;
const ESTIMATES_KEPT = 1_000;
const estimatesOf = new WeakMap<Queryable, Map<string, { rows: number; at: number }>>();

async function plannerEstimate(db: Queryable, sql: string, values: unknown[]): Promise<number> {
  const estimates = estimatesOf.get(db) ?? new Map();
  estimatesOf.set(db, estimates);
  const key = `${sql}\u0000${JSON.stringify(values)}`;
  const kept = estimates.get(key);
  if (kept && Date.now() - kept.at < ESTIMATE_KEEP_MS) return kept.rows;
  const plan = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    values,
  );
  const raw = plan.rows[0]?.['QUERY PLAN'];
  const parsed = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const rows = Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  if (estimates.size >= ESTIMATES_KEPT) estimates.delete(estimates.keys().next().value as string);
  estimates.set(key, { rows, at: Date.now() });
  return rows;
}

/**
 * A page whose rows the database wrote as one JSON array: a page of 100 log lines cost the
 * embedded database 0.8 ms more to hand over as rows, and Node more again to build objects of
 * them and write them back out as JSON.
 */
export interface ListPage extends Omit<Page<never>, 'results'> {
  resultsJson: string;
}

export async function runList(
  db: Queryable,
  source: ListSource,
  plan: ListPlan,
  p: Params,
): Promise<ListPage> {
  const conditions = [...source.where, ...plan.where];
  const whereSql = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const offset = (plan.page - 1) * plan.pageSize;
  // json_agg takes the rows in the order the sorted subquery yields them.
  const { rows } = await db.query<{ results: string; n: number }>(
    `SELECT coalesce(json_agg(r), '[]')::text AS results, count(*) AS n
       FROM (SELECT ${source.columns} FROM ${source.from} ${whereSql} ORDER BY ${plan.orderBy}
              LIMIT ${plan.pageSize} OFFSET ${offset}) r`,
    p.values,
  );
  const { results, n } = rows[0];
  // A page that is not full is the last one, so it tells the total without counting.
  const short = n < plan.pageSize && (n > 0 || plan.page === 1);
  const count = short
    ? { total: offset + n, estimated: false }
    : await countMatches(
        db,
        source.countFrom ?? source.from,
        whereSql,
        p.values,
        source.exactCountUpTo ?? EXACT_COUNT_LIMIT,
        offset + n,
      );
  return {
    totalResults: count.total,
    pageSize: plan.pageSize,
    pages: Math.ceil(count.total / plan.pageSize),
    page: plan.page,
    ...(count.estimated ? { totalIsEstimate: true } : {}),
    resultsJson: results,
  };
}
