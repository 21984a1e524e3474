// The Redis a suite uses is its own: a redis-server started on a free port in a temporary directory
// before the suite's tests and stopped after (redis-server.ts), so suites never share keys with each
// other, nor touch a Redis someone else runs. No AOF: these suites test svc, not Redis's durability.
import { afterAll, beforeAll } from 'vitest';
import { Redis } from 'ioredis';
import { ownRedis, type OwnRedis } from './redis-server.ts';

export interface SuiteRedis {
  /** the server's database 0 */
  url(): string;
  /** empty it, between tests that must start clean */
  flush(): Promise<void>;
  /** how many keys it holds */
  keys(): Promise<number>;
}

/** `use` with a client of the server, disconnected after */
async function onServer<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

/** this suite's own redis-server; call at the top of a test file */
export function suiteRedis(): SuiteRedis {
  let server: OwnRedis | undefined;
  beforeAll(async () => {
    server = await ownRedis('off');
  });
  afterAll(async () => {
    await server?.stop();
  });
  const url = () => {
    if (!server) throw new Error("the suite's redis-server has not started (suiteRedis() belongs at the top of a test file)");
    return server.url(0);
  };
  return { url, flush: () => onServer(url(), (c) => c.flushdb()).then(() => {}), keys: () => onServer(url(), (c) => c.dbsize()) };
}
