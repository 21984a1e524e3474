// Circuit breaking and own-key cool-downs, on a clock the test controls.
import { describe, expect, it } from 'vitest';
import { CIRCUIT_COOL_MS, CIRCUIT_ERRORS, Health, OWN_KEY_COOL_MS } from '../../runtime/router/health.ts';
import { LocalEphemera } from '../../runtime/state/ephemeral-local.ts';

function clocked() {
  let now = 1_000_000;
  return {
    health: new Health(() => now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** two instances sharing their marks through one store of the atomics, on one clock */
function twoInstances() {
  let now = 1_000_000;
  const marks = new LocalEphemera(() => now);
  const shared = { mark: async (n: string, ms: number) => marks.mark(n, ms), marks: async () => marks.marks() };
  return {
    a: new Health(() => now, shared),
    b: new Health(() => now, shared),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('the circuit of a child', () => {
  it('opens after five errors in a row, not after misses or interrupted runs', () => {
    const { health } = clocked();
    for (let i = 0; i < CIRCUIT_ERRORS - 1; i++) health.record('a', 'error');
    health.record('a', 'miss');
    for (let i = 0; i < CIRCUIT_ERRORS - 1; i++) health.record('a', 'error');
    expect(health.circuitOpen('a')).toBe(false);
    health.record('a', 'error');
    expect(health.circuitOpen('a')).toBe(true);
    expect(health.circuitOpen('b')).toBe(false);
  });

  it('lets one probe through after the cool-down; an error re-opens it, a hit closes it', () => {
    const { health, advance } = clocked();
    for (let i = 0; i < CIRCUIT_ERRORS; i++) health.record('a', 'error');
    advance(CIRCUIT_COOL_MS - 1);
    expect(health.circuitOpen('a')).toBe(true);
    advance(1);
    expect(health.circuitOpen('a')).toBe(false); // the probe
    health.record('a', 'error');
    expect(health.circuitOpen('a')).toBe(true); // failed probe: open again at once
    advance(CIRCUIT_COOL_MS);
    expect(health.circuitOpen('a')).toBe(false);
    health.record('a', 'hit');
    health.record('a', 'error');
    expect(health.circuitOpen('a')).toBe(false); // closed: one error is not five
  });
});

describe('own keys', () => {
  it('are set aside per team and provider for the cool-down', () => {
    const { health, advance } = clocked();
    health.coolOwnKey(1, 'hunter');
    expect(health.ownKeyCooling(1, 'hunter')).toBe(true);
    expect(health.ownKeyCooling(2, 'hunter')).toBe(false);
    expect(health.ownKeyCooling(1, 'apollo')).toBe(false);
    advance(OWN_KEY_COOL_MS);
    expect(health.ownKeyCooling(1, 'hunter')).toBe(false);
  });
});

describe('health shared through the state atomics (two instances)', () => {
  it('an instance sees a circuit and a cooled key another opened, once it syncs, until they end', async () => {
    const { a, b, advance } = twoInstances();
    for (let i = 0; i < CIRCUIT_ERRORS; i++) a.record('e.x', 'error');
    a.coolOwnKey(7, 'searchco');
    expect([b.circuitOpen('e.x'), b.ownKeyCooling(7, 'searchco')]).toEqual([false, false]);
    await b.sync();
    expect([b.circuitOpen('e.x'), b.ownKeyCooling(7, 'searchco'), b.ownKeyCooling(8, 'searchco')]).toEqual([true, true, false]);
    advance(CIRCUIT_COOL_MS);
    await b.sync();
    expect([b.circuitOpen('e.x'), b.ownKeyCooling(7, 'searchco')]).toEqual([false, true]);
  });

  it('a key the team stores after a refusal is not set aside, on this instance or another; a later refusal sets it aside', async () => {
    const { a, b, advance } = twoInstances();
    a.coolOwnKey(7, 'searchco');
    await b.sync();
    advance(1_000);
    a.ownKeyReplaced(7, 'searchco');
    expect([a.ownKeyCooling(7, 'searchco'), b.ownKeyCooling(7, 'searchco')]).toEqual([false, true]);
    await b.sync();
    expect(b.ownKeyCooling(7, 'searchco')).toBe(false);
    advance(1_000);
    b.coolOwnKey(7, 'searchco');
    await a.sync();
    expect([a.ownKeyCooling(7, 'searchco'), b.ownKeyCooling(7, 'searchco')]).toEqual([true, true]);
  });
});
