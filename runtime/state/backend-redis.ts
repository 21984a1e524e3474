// The Redis backend of state (SVC_STORAGE=redis://…): records through the redis driver, everything
// that must be exact across instances through RedisAtomics.
import { createStorage } from 'unstorage';
import type { Backend } from './backend.ts';
import { connectRedis, redisClient } from './redis-client.ts';
import { redisDriver } from './drivers/redis.ts';
import { RedisAtomics } from './atomics-redis.ts';

export async function openRedisBackend(url: string): Promise<Backend> {
  const client = redisClient(url);
  await connectRedis(client, url);
  const s = createStorage({ driver: redisDriver(client) });
  return { kind: 'redis', storage: s, atomics: new RedisAtomics(client, s), durable: true, exclusive: false, release: () => client.disconnect() };
}
