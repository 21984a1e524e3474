// unstorage driver over the process's Redis connection (runtime/state/redis-client.ts): one string
// per record under `r:<key>`, the namespace RedisAtomics reads and compare-and-sets, so a record
// written through either is the same record. Failures surface as StorageUnavailable (503).
import { defineDriver, type Driver } from 'unstorage';
import { onRedis, type RedisClient } from '../redis-client.ts';

export const RECORD_PREFIX = 'r:';

export const redisDriver = defineDriver((client: RedisClient): Driver => {
  const k = (key: string) => RECORD_PREFIX + key;
  return {
    name: 'svc-redis',
    hasItem: async (key) => (await onRedis(client.exists(k(key)))) === 1,
    getItem: (key) => onRedis(client.get(k(key))),
    setItem: async (key, value) => {
      await onRedis(client.set(k(key), value));
    },
    removeItem: async (key) => {
      await onRedis(client.del(k(key)));
    },
    async getKeys(base) {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await onRedis(client.scan(cursor, 'MATCH', `${k(base ?? '')}*`, 'COUNT', 1000));
        for (const key of batch) keys.push(key.slice(RECORD_PREFIX.length));
        cursor = next;
      } while (cursor !== '0');
      return keys;
    },
    async clear(base) {
      const keys = await this.getKeys!(base ?? '', {});
      if (keys.length) await onRedis(client.del(...keys.map(k)));
    },
  };
});
