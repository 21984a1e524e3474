// The Redis the suites share (CI starts one at 127.0.0.1:6379): each suite takes its own database
// number and empties it before use, so suites running side by side never see each other's keys.
import { Redis } from 'ioredis';

export const REDIS_PORT = Number(process.env.SVC_TEST_REDIS_PORT ?? 6379);

export const redisUrl = (db: number, port = REDIS_PORT) => `redis://127.0.0.1:${port}/${db}`;

/** empty database `db` */
export async function flushRedis(db: number, port = REDIS_PORT): Promise<void> {
  const client = new Redis(redisUrl(db, port), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushdb();
  client.disconnect();
}

/** how many keys database `db` holds */
export async function redisKeys(db: number, port = REDIS_PORT): Promise<number> {
  const client = new Redis(redisUrl(db, port), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  const n = await client.dbsize();
  client.disconnect();
  return n;
}

/** the databases each suite owns (one place, so two suites never take the same number) */
export const REDIS_DB = { state: 1, instances: 2, ledger: 3, demo: 4, refunds: 5 } as const;
