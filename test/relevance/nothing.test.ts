// The finder says when it does not know: jobs the catalog does not do (nonsense.yaml) get no
// candidates and "nothing does this" from GET /catalog/find, and a job it does still gets its picks
// in a sensible order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { servedRealCatalog } from './served.ts';
import { actReader } from '../../runtime/find/nothing.ts';
import type { FinderSrc } from '../../language/source-types.ts';

const nonsense = parse(readFileSync(join(import.meta.dirname, 'nonsense.yaml'), 'utf8')) as string[];
const server = servedRealCatalog();

interface Lines {
  candidates: { candidates: Array<{ endpoint_id: string; capability: string }> };
  judged?: { kept: Array<{ endpoint_id: string }>; verdict: string };
}
async function find(q: string): Promise<Lines> {
  const text = await (await fetch(`${server.url}/catalog/find?q=${encodeURIComponent(q)}`)).text();
  const [candidates, judged] = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return { candidates, judged };
}

describe('the finder on jobs nothing does', () => {
  it('answers every nonsense or out-of-scope job "nothing does this", with no candidates or picks', async () => {
    expect(nonsense.length).toBeGreaterThanOrEqual(15);
    const wrong: string[] = [];
    for (const q of nonsense) {
      const { candidates, judged } = await find(q);
      if (candidates.candidates.length || judged?.kept.length || !judged?.verdict.startsWith('Nothing does this')) {
        wrong.push(`${q} -> ${candidates.candidates.length} candidates, ${judged?.kept.length} kept: ${judged?.verdict}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("says so in the user's words", async () => {
    expect((await find('qqqq zzzz')).judged?.verdict).toBe(
      'Nothing does this: no operation in the catalog knows any word of \'qqqq zzzz\'. Describe the data you want in a few words, such as "verify an email" or "company from a domain".',
    );
  });

  it('an empty job is no job, said as such', async () => {
    for (const q of ['', '   ']) {
      expect((await find(q)).judged?.verdict).toBe(
        'No job given. Describe the data you want in a few words, such as "verify an email" or "company from a domain".',
      );
    }
  });

  it("still picks for a provider's name alone, and picks a verifier, not a finder, to verify a list of emails", async () => {
    expect((await find('numverify')).judged?.kept.length).toBeGreaterThan(0);
    const { candidates, judged } = await find('verify a list of emails');
    const capabilityOf = new Map(candidates.candidates.map((c) => [c.endpoint_id, c.capability]));
    const picks = judged!.kept.map((k) => capabilityOf.get(k.endpoint_id));
    expect(picks[0]).toBe('people.email.verify');
    expect(picks.indexOf('people.email.find')).not.toBe(0);
  });

  it('reads a job that asks for data as one, though it opens with a verb the finder counts as an act', async () => {
    for (const q of [
      'send me the work emails of the founders of stripe.com',
      'share us the phone number of jane doe at acme',
      'share with me the revenue of shopify.com',
      'could you send to us the emails of the founders of notion.so',
      'send over the work emails of the founders of stripe.com',
      // a give of a datum of someone, whoever it is for
      'share the phone number of jane doe at acme',
      'Please forward the work emails of the founders of notion.so to my team',
      // an act's word as a noun: before `of`, or opening two words a vocabulary names data by
      'text of a linkedin post by satya nadella',
      'post reactions on https://www.linkedin.com/posts/satyanadella_ai-activity-7100000000000000000-abcd',
      'install counts of the grammarly chrome extension',
    ]) {
      const { judged } = await find(q);
      expect(judged?.verdict, q).not.toMatch(/^Nothing does this/);
      expect(judged?.kept.length, q).toBeGreaterThan(0);
    }
  });

  it('reads a job asking how to reach a person as a need for their number or address', async () => {
    for (const [q, capability] of [
      ['how can I call this person', 'people.phone.find'],
      ['How could I call Jane Doe at acme.com?', 'people.phone.find'],
    ]) {
      const { candidates, judged } = await find(q);
      expect(judged?.verdict, q).not.toMatch(/^Nothing does this/);
      const capabilityOf = new Map(candidates.candidates.map((c) => [c.endpoint_id, c.capability]));
      expect(capabilityOf.get(judged!.kept[0]?.endpoint_id), q).toBe(capability);
    }
    // told to, not asked how: still the act
    expect((await find('call this person')).judged?.verdict).toMatch(/none can call for you/);
    expect((await find('how do I send an email to my team')).judged?.verdict).toMatch(/none can send for you/);
  });

  it('names the act it cannot do', async () => {
    expect((await find('please book a flight to paris')).judged?.verdict).toMatch(
      /^Nothing does this: every operation in the catalog reads data .*none can book for you/,
    );
    // courtesy words before the verb are openers too
    expect((await find('Hey, could you kindly translate this page into German?')).judged?.verdict).toMatch(/none can translate for you/);
  });
});

describe("the last release's finder words (search/finder.json without datum_opens, datum_of, asks_how, means, determiners)", () => {
  const old: FinderSrc = {
    acts: ['send', 'call', 'share', 'post'],
    openers: ['please', 'how can i'],
    gives: ['send', 'share'],
    to_caller: ['me'],
  };
  it('read as before: a give to the caller asks for data, other acts stay acts', () => {
    const asked = actReader(old, []);
    expect(asked('please send me the emails of the founders of stripe.com')).toBeNull();
    expect(asked('share the phone number of jane doe')).toBe('share');
    expect(asked('how can I call this person')).toBe('call');
    expect(asked('what is the revenue of stripe')).toBeNull();
    expect(asked('share of voice of stripe')).toBe('share');
    expect(asked('post reactions on this linkedin post')).toBe('post');
  });
});
