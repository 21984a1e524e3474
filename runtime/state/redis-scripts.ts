// The Lua scripts RedisAtomics runs: each one step Redis executes alone, so a check and the write it
// allows cannot be split by another instance. Amounts arrive as decimal strings and move through
// HINCRBY (64-bit integers); Lua's doubles only compare, which is exact below 2^53.
// Windows, holds and marks describe work in flight, which a Redis restart ends anyway: their scripts
// keep their writes out of the AOF and replication (REPL_NONE), so with `appendfsync always` only
// the ledger, ids and records wait for a disk sync.
import type { RedisClient } from './redis-client.ts';

const MAX_SAFE = '9007199254740991';
/** the script's writes stay in memory: not in the AOF, not sent to replicas */
const EPHEMERAL = 'redis.set_repl(redis.REPL_NONE)';
/** \`now\`: Redis's clock in ms, one clock for every instance */
const NOW = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";
/**
 * Lua dropping hold `id` (an expression) from an account's holds: hash `h` (hold id → amount, and
 * '+held', their running total) and sorted set `x` (hold id by expiry). Holds are kept so, not as a
 * list scanned per hold, so a hold costs Redis the same with one call of the team in flight or a
 * thousand.
 */
const dropHold = (h: string, x: string, id: string) => `
local amount = redis.call('HGET', ${h}, ${id})
if amount then
  redis.call('HDEL', ${h}, ${id})
  redis.call('HINCRBY', ${h}, '+held', -tonumber(amount))
  redis.call('ZREM', ${x}, ${id})
end`;

export const SCRIPTS = {
  /**
   * KEYS: account hash, ledger list, the post's receipt, the account's holds hash and expiry set, the
   * poster's open receipts hash. ARGV: field (balance|earnings), signed amount, entry JSON after its
   * id, receipt lifetime s, a hold id to drop once the entry is written ('' for none), the account.
   * Answers the entry id, or 0 (refused, nothing written, the hold left standing). The receipt tells
   * a poster whose answer was lost whether the post landed; a post sent again under a receipt that
   * landed answers that entry and writes nothing. The open receipts hash names, for any instance, the
   * posts of this one it has not yet heard answered (redis-lease.ts).
   */
  ledgerPost: {
    numberOfKeys: 6,
    lua: `
local prior = redis.call('GET', KEYS[3])
if prior then return tonumber(prior) end
local next = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') + tonumber(ARGV[2])
if next < 0 or next > ${MAX_SAFE} then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
local id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local entry = '{"id":' .. id .. ARGV[3]
redis.call('RPUSH', KEYS[2], entry)
redis.call('SET', KEYS[3], id, 'EX', ARGV[4])
redis.call('HSET', KEYS[6], KEYS[3], ARGV[6] .. '\\n' .. entry)
redis.call('EXPIRE', KEYS[6], ARGV[4])
if ARGV[5] ~= '' then
  ${EPHEMERAL}
  ${dropHold('KEYS[4]', 'KEYS[5]', 'ARGV[5]')}
end
return id`,
  },
  /**
   * KEYS: account hash, ledger list, the account's refunds hash (charge id → micro-USD given back).
   * ARGV: charge entry id, amount, the entry's time. Credits up to the amount, never past what the
   * charge took less earlier refunds of it, as an entry naming the charge's references. Answers the
   * new entry's JSON, or 0 (no such charge, nothing of it left, or past the largest balance).
   */
  refund: {
    numberOfKeys: 3,
    lua: `
local raw = redis.call('LINDEX', KEYS[2], tonumber(ARGV[1]) - 1)
if not raw then return 0 end
local charge = cjson.decode(raw)
if charge.kind ~= 'charge' or charge.id ~= tonumber(ARGV[1]) then return 0 end
local give = math.min(tonumber(ARGV[2]), -charge.amount_micro - tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0'))
if give <= 0 or tonumber(redis.call('HGET', KEYS[1], 'balance') or '0') + give > ${MAX_SAFE} then return 0 end
give = string.format('%d', give)
redis.call('HINCRBY', KEYS[1], 'balance', give)
local id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local entry = '{"id":' .. id .. ',"at":' .. cjson.encode(ARGV[3]) .. ',"kind":"credit","amount_micro":' .. give
for _, ref in ipairs({'endpoint_id', 'call_id', 'tool_id'}) do
  if type(charge[ref]) == 'string' then entry = entry .. ',"' .. ref .. '":' .. cjson.encode(charge[ref]) end
end
entry = entry .. '}'
redis.call('RPUSH', KEYS[2], entry)
redis.call('HINCRBY', KEYS[3], ARGV[1], give)
return entry`,
  },
  /** KEYS: record. ARGV: the value read ('' for none), the new value. 1 when written; 0 when the record changed since the read. */
  compareAndSet: {
    numberOfKeys: 1,
    lua: `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`,
  },
  /** KEYS: window counter. ARGV: window ms. Answers {count in this window, ms until it ends}. */
  windowHit: {
    numberOfKeys: 1,
    lua: `
${EPHEMERAL}
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`,
  },
  /**
   * KEYS: account hash, its holds hash and expiry set. ARGV: hold id, amount, ttl ms. Expiries are by
   * Redis's clock; expired holds (an instance that died holding) are dropped here first. Answers {1
   * when held else 0, the balance (holds aside) it was decided against}.
   */
  hold: {
    numberOfKeys: 3,
    lua: `
${EPHEMERAL}
${NOW}
for _, expired in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  ${dropHold('KEYS[2]', 'KEYS[3]', 'expired')}
end
local balance = redis.call('HGET', KEYS[1], 'balance') or '0'
if tonumber(balance) - tonumber(redis.call('HGET', KEYS[2], '+held') or '0') < tonumber(ARGV[2]) then return {0, balance} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[2], '+held', ARGV[2])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), ARGV[1])
-- the keys outlive their longest hold: a short hold never cuts a longer one's life
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
return {1, balance}`,
  },
  /** KEYS: holds hash, expiry set. ARGV: hold id. */
  unhold: {
    numberOfKeys: 2,
    lua: `
${EPHEMERAL}
${dropHold('KEYS[1]', 'KEYS[2]', 'ARGV[1]')}
return 1`,
  },
  /** KEYS: marks hash. ARGV: name, ttl ms. Sets a mark until now + ttl (Redis's clock), keeping a later one. */
  mark: {
    numberOfKeys: 1,
    lua: `
${EPHEMERAL}
${NOW}
local until_ms = now + tonumber(ARGV[2])
if tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') < until_ms then redis.call('HSET', KEYS[1], ARGV[1], string.format('%d', until_ms)) end
return 1`,
  },
  /** KEYS: marks hash. Answers {name, ms left, …} for live marks, dropping expired ones. */
  marks: {
    numberOfKeys: 1,
    lua: `
${EPHEMERAL}
${NOW}
local out = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local left = tonumber(all[i + 1]) - now
  if left <= 0 then redis.call('HDEL', KEYS[1], all[i]) else out[#out + 1] = all[i]; out[#out + 1] = left end
end
return out`,
  },
} as const;

type ScriptName = keyof typeof SCRIPTS;
export type Scripted = { [K in ScriptName]: (...args: Array<string | number>) => Promise<unknown> };

/** the client with each script as a command (EVALSHA, loaded again by ioredis after a Redis restart) */
export function withScripts(client: RedisClient): Scripted {
  for (const [name, s] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: s.numberOfKeys, lua: s.lua });
  return client as unknown as Scripted;
}
