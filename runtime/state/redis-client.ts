// One ioredis connection per process for SVC_STORAGE=redis://…, set to fail fast: while Redis is
// away a command is refused at once (no offline queue, no retries) instead of waiting or being
// re-sent later, and none is waited on past 5 s, so a request answers 503 rather than hanging, and
// a script whose answer was lost is never run twice. The connection comes back by itself (reconnect with a capped back-off).
import { Redis } from 'ioredis';
import { StorageUnavailable } from './unavailable.ts';

export type RedisClient = Redis;

export function redisClient(url: string): RedisClient {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Off: ioredis keeps each turn's pipeline in a Map it sets and deletes per turn, and V8 moved every
    // pipeline, with its commands and the calls waiting on them, to the old generation (3 KB a routed
    // call at 32 connections, 6.6 KB on one; bench/README.md). Redis still reads what arrives while it
    // is busy in one go, so posts of one turn still share its fsync.
    enableAutoPipelining: false,
    connectTimeout: 2000,
    // a Redis that takes a command and never answers (a partition, a stalled disk) is away too;
    // a post that answers later is settled like any lost answer (redis-doubts.ts)
    commandTimeout: 5000,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
  });
}

/** connect, or fail with a sentence naming the address (the start stops on it: runtime/serve/lifecycle.ts) */
export async function connectRedis(client: RedisClient, url: string): Promise<void> {
  let last: unknown = null;
  // reported per command (503) and by /readyz, not as an uncaught event; the latest names why a connect failed
  client.on('error', (e) => {
    last = e;
  });
  try {
    await client.connect();
  } catch (e) {
    client.disconnect();
    throw new StorageUnavailable(last ?? e, `SVC_STORAGE=${url.replace(/\/\/[^@/]*@/, '//…@')}: Redis`);
  }
}

/** a Redis reply error (a bug in a script or a wrong key type) stays itself; anything else means Redis is away */
export async function onRedis<T>(op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (e) {
    if (e instanceof Error && e.name === 'ReplyError' && !/^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN)/.test(e.message)) throw e;
    throw new StorageUnavailable(e);
  }
}
