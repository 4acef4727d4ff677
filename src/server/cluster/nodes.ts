// Which server processes are alive: each one stamps its row in cluster_nodes every few seconds
// and removes it when it stops. A link held by a process that stopped stamping is stale.

import type { Queryable } from '../db/db.ts';

export const NODE_HEARTBEAT_MS = 5_000;
/** Three missed heartbeats and a process is taken for dead. */
export const NODE_DEAD_AFTER_S = 15;

/** SQL true for a `connected_to` value naming no live process. */
export const deadNode = (column: string) =>
  `(${column} IS NULL OR NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = ${column}
     AND n.last_seen > now() - interval '${NODE_DEAD_AFTER_S} seconds'))`;

export interface NodeMembership {
  /** Stamps once more now (tests use it instead of waiting). */
  beat(): Promise<void>;
  leave(): Promise<void>;
}

export async function joinCluster(db: Queryable, nodeId: string): Promise<NodeMembership> {
  const beat = async () => {
    await db.query(
      `INSERT INTO cluster_nodes (node_id) VALUES ($1)
       ON CONFLICT (node_id) DO UPDATE SET last_seen = now()`,
      [nodeId],
    );
  };
  await beat();
  const timer = setInterval(() => {
    beat().catch((e) => console.error('cluster: heartbeat failed', (e as Error).message));
  }, NODE_HEARTBEAT_MS);
  timer.unref();
  return {
    beat,
    async leave() {
      clearInterval(timer);
      await db.query('DELETE FROM cluster_nodes WHERE node_id = $1', [nodeId]);
    },
  };
}

/** A secret every process signs with (Pusher channel auth), made once by whichever starts first. */
export async function sharedSecret(db: Queryable, name: string, make: () => string): Promise<string> {
  await db.query('INSERT INTO cluster_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    make(),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM cluster_settings WHERE name = $1', [
    name,
  ]);
  return rows[0].value;
}
