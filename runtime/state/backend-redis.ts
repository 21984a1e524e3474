// The Redis backend of state (SVC_STORAGE=redis://…): records through the redis driver, everything
// that must be exact across instances through RedisAtomics.
import { createStorage, type Storage } from 'unstorage';
import type { Atomics } from './atomics.ts';
import { connectRedis, redisClient } from './redis-client.ts';
import { redisDriver } from './drivers/redis.ts';
import { RedisAtomics } from './atomics-redis.ts';

export async function openRedis(url: string): Promise<{ storage: Storage; atomics: Atomics; release: () => void }> {
  const client = redisClient(url);
  await connectRedis(client, url);
  const storage = createStorage({ driver: redisDriver(client) });
  const atomics = new RedisAtomics(client, storage);
  return {
    storage,
    atomics,
    release: () => {
      atomics.stop();
      client.disconnect();
    },
  };
}
