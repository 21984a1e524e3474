import { describe, expect, it } from 'vitest';
import { promotedBytes } from '../helpers/gc-trace.ts';
import { suiteRedis } from '../helpers/redis.ts';

const TURNS = 1_000;

const redis = suiteRedis();

describe("svc's Redis client and the collector", () => {
  // With ioredis's auto-pipelining each turn's commands wait in a pipeline that ioredis keeps in a
  // Map it sets and deletes per turn; V8 then moved every pipeline, its commands and the calls waiting
  // on them to the old generation. Here about 1,000 bytes a command with it, 250 without.
  it('lets a command and the call that waits on it die young', () => {
    const promoted = promotedBytes('redis-churn.ts', [redis.url(), String(TURNS)]);
    expect(promoted / (TURNS * 32)).toBeLessThan(600);
  }, 30_000);
});
