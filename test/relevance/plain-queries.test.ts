// Plain queries whose answer is not in doubt, over the real catalog and a loopback server: a
// provider written as its brand ('Hunter.io' reads as a domain otherwise), a video's counts asked
// for in plain words, and jobs whose one generic word ('stats', 'likes') once made the finder's judge
// keep another platform's rows.
import { describe, expect, it } from 'vitest';
import { servedRealCatalog } from './served.ts';

const server = servedRealCatalog();

const search = async (q: string) =>
  (
    (await (await fetch(`${server.url}/catalog/search?q=${encodeURIComponent(q)}&limit=5`)).json()) as {
      results: Array<{ endpoint_id: string; capability: string }>;
    }
  ).results;

async function find(q: string): Promise<{ capabilityOf: Map<string, string>; kept: Array<{ endpoint_id: string; why: string }>; verdict: string }> {
  const [candidates, judged] = (await (await fetch(`${server.url}/catalog/find?q=${encodeURIComponent(q)}`)).text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return {
    capabilityOf: new Map(candidates.candidates.map((c: { endpoint_id: string; capability: string }) => [c.endpoint_id, c.capability])),
    kept: judged.kept,
    verdict: judged.verdict,
  };
}

describe('a provider named by its brand', () => {
  it.each([
    ['Hunter.io', 'hunter.'],
    ['Snov.io', 'snov.'],
    ['apollo.io', 'apollo.'],
    ['Tomba.io email finder', 'tomba.'],
  ])('%s answers its own operations', async (q, prefix) => {
    const results = await search(q);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results.slice(0, 3)) expect(r.endpoint_id.startsWith(prefix)).toBe(true);
  });

  it('a provider name one edit or two from a catalog word is not corrected to it (datagma is not database)', async () => {
    const results = await search('datagma find people at a company');
    expect(results[0].endpoint_id).toBe('datagma.people.find_people');
  });

  it('a domain that is no provider still reads as a domain', async () => {
    expect((await search('competitors of stripe.com'))[0].capability).toBe('companies.similar');
  });
});

describe("a video's counts", () => {
  it.each(['youtube likes', 'youtube video likes', 'youtube video stats', 'video view count'])(
    '%s: video details first, before any lookalike companies',
    async (q) => {
      const caps = (await search(q)).map((r) => r.capability);
      expect(caps.slice(0, 2)).toEqual(['youtube.video.detail', 'youtube.video.detail']);
    },
  );
});

describe('the finder keeps rows of the platform the job names', () => {
  it('youtube channel stats: YouTube first, no LinkedIn post said to do the job', async () => {
    const { capabilityOf, kept } = await find('youtube channel stats');
    expect(capabilityOf.get(kept[0].endpoint_id)).toBe('youtube.channel.profile');
    const linkedin = kept.filter((k) => capabilityOf.get(k.endpoint_id)?.startsWith('linkedin.'));
    for (const k of linkedin) expect(k.why).toMatch(/^matches the words/);
  });

  it('youtube video likes: no lookalike companies', async () => {
    const { capabilityOf, kept } = await find('youtube video likes');
    expect(kept.map((k) => capabilityOf.get(k.endpoint_id)).filter((c) => c === 'companies.similar')).toEqual([]);
  });
});
