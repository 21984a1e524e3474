import { describe, expect, it } from 'vitest';
import { CallMerger, mergeKey } from '../../runtime/router/identical-calls.ts';
import { parseRouteOptions, type RouteOptions } from '../../runtime/router/options.ts';

const defaults = parseRouteOptions(new Headers());

/** the same options with one field changed, whatever its type */
function changed(field: keyof RouteOptions): RouteOptions {
  const v = defaults[field];
  const other = typeof v === 'boolean' ? !v : typeof v === 'number' ? v + 1 : ['acme'];
  return { ...defaults, [field]: other };
}

describe('mergeKey', () => {
  it('is the same for the same body in any key order', () => {
    expect(mergeKey(1, 'people.enrich', { email: 'a@b.co', name: { first: 'A', last: 'B' } }, defaults)).toBe(
      mergeKey(1, 'people.enrich', { name: { last: 'B', first: 'A' }, email: 'a@b.co' }, defaults),
    );
  });

  it('is the same for options sent at their defaults as for none sent', () => {
    const sent = parseRouteOptions(new Headers({ 'x-svc-route-waterfall': 'true', 'x-svc-route-verify': '0', 'x-svc-route-max-cost': '1.00' }));
    expect(sent).not.toBe(defaults);
    expect(mergeKey(1, 'people.enrich', { email: 'a@b.co' }, sent)).toBe(mergeKey(1, 'people.enrich', { email: 'a@b.co' }, defaults));
  });

  it('differs when the team, capability, body or any single option differs', () => {
    const base = mergeKey(1, 'people.enrich', { email: 'a@b.co' }, defaults);
    expect(mergeKey(2, 'people.enrich', { email: 'a@b.co' }, defaults)).not.toBe(base);
    expect(mergeKey(1, 'companies.enrich', { email: 'a@b.co' }, defaults)).not.toBe(base);
    expect(mergeKey(1, 'people.enrich', { email: 'a@b.com' }, defaults)).not.toBe(base);
    // every field of RouteOptions, including any added later, must reach the key
    for (const field of Object.keys(defaults) as Array<keyof RouteOptions>) {
      expect(mergeKey(1, 'people.enrich', { email: 'a@b.co' }, changed(field)), field).not.toBe(base);
    }
    expect(mergeKey(1, 'x', {}, { ...defaults, prefer: ['a'] })).not.toBe(mergeKey(1, 'x', {}, { ...defaults, exclude: ['a'] }));
  });
});

/** a caller that stays for its answer */
const stays = () => false;

describe('CallMerger', () => {
  it('runs identical concurrent work once, and again once it has finished', async () => {
    const merger = new CallMerger<number>();
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 5));
      return runs;
    };
    const joined = (first: number) => -first; // what a caller who joined is answered
    const answer = (runsThen: number) => runsThen; // the work's outcome as the first caller's answer
    expect(
      await Promise.all([
        merger.run('k', stays, work, answer, joined),
        merger.run('k', stays, work, answer, joined),
        merger.run('other', stays, work, answer, joined),
      ]),
    ).toEqual([2, -2, 2]);
    expect(await merger.run('k', stays, work, answer, joined)).toBe(3);
    const failing = () => Promise.reject(new Error('no'));
    const both = [merger.run('f', stays, failing, answer, joined), merger.run('f', stays, work, answer, joined)];
    for (const p of both) await expect(p).rejects.toThrow('no'); // a joined caller sees the failure too
    expect(await merger.run('f', stays, work, answer, joined)).toBe(4); // a failure does not stay in flight
  });

  it('answers from the outcome once, and joined callers from that answer', async () => {
    const merger = new CallMerger<string>();
    let answered = 0;
    const answer = (n: number) => {
      answered++;
      return `answer ${n}`;
    };
    const work = () => new Promise<number>((r) => setTimeout(r, 5, 7));
    expect(
      await Promise.all([merger.run('k', stays, work, answer, (a) => `${a}, shared`), merger.run('k', stays, work, answer, (a) => `${a}, shared`)]),
    ).toEqual(['answer 7', 'answer 7, shared']);
    expect(answered).toBe(1);
  });

  it('holds many calls in flight at once, each joinable until it leaves', async () => {
    const merger = new CallMerger<string>();
    const finish: Array<() => void> = [];
    let runs = 0;
    const work = (k: string) => () =>
      new Promise<string>((r) => {
        runs++;
        finish.push(() => r(k));
      });
    const keys = Array.from({ length: 1000 }, (_, i) => `1 people.email.verify {"email":"jane${i}@acme.com"}`);
    const firsts = keys.map((k) =>
      merger.run(
        k,
        stays,
        work(k),
        (x) => x,
        (x) => x,
      ),
    );
    const joined = keys.map((k) =>
      merger.run(
        k,
        stays,
        work(k),
        (x) => x,
        (x) => `${x}, joined`,
      ),
    );
    expect(runs).toBe(1000);
    for (const f of finish.splice(0)) f();
    expect(await Promise.all(firsts)).toEqual(keys);
    expect(await Promise.all(joined)).toEqual(keys.map((k) => `${k}, joined`));
    for (const k of keys)
      void merger.run(
        k,
        stays,
        work(k),
        (x) => x,
        (x) => x,
      );
    expect(runs).toBe(2000); // every call left: each runs again
    for (const f of finish.splice(0)) f();
  });
});

describe('CallMerger and callers that leave', () => {
  it('tells the work once every caller of it has gone, not before', async () => {
    const merger = new CallMerger<string>();
    const left = [false, false];
    let seen: (() => boolean) | null = null;
    let finish: () => void = () => {};
    const work = (allGone: () => boolean) =>
      new Promise<string>((r) => {
        seen = allGone;
        finish = () => r('done');
      });
    const caller = (i: number) =>
      merger.run(
        'k',
        () => left[i],
        work,
        (x) => x,
        (x) => `${x}, joined`,
      );
    const [first, second] = [caller(0), caller(1)];
    expect(seen!()).toBe(false);
    left[0] = true; // the caller who started the work leaves; the one who joined still waits
    expect(seen!()).toBe(false);
    left[1] = true;
    expect(seen!()).toBe(true);
    finish();
    expect(await Promise.all([first, second])).toEqual(['done', 'done, joined']);
  });
});
