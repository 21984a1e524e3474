// The Redis the suites share (CI starts one at 127.0.0.1:6379): each suite takes its own database
// number and empties it before use, so suites running side by side never see each other's keys.
import { Redis } from 'ioredis';

export const REDIS_PORT = Number(process.env.SVC_TEST_REDIS_PORT ?? 6379);

export const redisUrl = (db: number, port = REDIS_PORT) => `redis://127.0.0.1:${port}/${db}`;

/** `use` with a client of database `db`, disconnected after */
async function onDb<T>(db: number, port: number, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(redisUrl(db, port), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

/** empty database `db` */
export async function flushRedis(db: number, port = REDIS_PORT): Promise<void> {
  await onDb(db, port, (c) => c.flushdb());
}

/** how many keys database `db` holds */
export const redisKeys = (db: number, port = REDIS_PORT): Promise<number> => onDb(db, port, (c) => c.dbsize());

/** the databases each suite owns (one place, so two suites never take the same number) */
export const REDIS_DB = { state: 1, instances: 2, ledger: 3, demo: 4, refunds: 5, earnings: 6, heap: 7 } as const;
