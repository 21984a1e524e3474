// Search ranking: more of the query's words matched first (rare words weigh more, a capability's
// vocabulary counts for its rows); the routed entry first when the query names its job; ties:
// measured before unmeasured, then cheaper, then id. Stemming (and words kept apart from their stem),
// literals and misspellings; had and wanted words, names written out, rows a caller joins.
import { describe, expect, it } from 'vitest';
import type { CapabilityDoc, SearchRow } from '../../language/types.ts';
import { SearchEngine } from '../../language/search.ts';
import { exportSearchIndex } from '../../language/search-index.ts';
import { searchEncoder } from '../../language/encoder.ts';

const row = (endpoint_id: string, name: string, usd: number | null, extra: Partial<SearchRow> = {}): SearchRow => ({
  endpoint_id,
  name,
  summary: 'Checks an address.',
  provider: endpoint_id.split('.')[0],
  provider_display: endpoint_id.split('.')[0],
  capability: 'people.email.verify',
  kind: 'data',
  usd,
  ...extra,
});

async function engine(rows: SearchRow[], docs: CapabilityDoc[] = []): Promise<SearchEngine> {
  // Rows are indexed in id order, as the build emits them.
  const sorted = [...rows].sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id));
  return new SearchEngine(sorted, await exportSearchIndex(sorted, docs), docs);
}

const verifyDoc: CapabilityDoc = {
  capability: 'people.email.verify',
  description: 'Whether an address receives mail.',
  identity: [['email']],
  output: ['status'],
  vocabulary: {
    terms: ['bounce', 'deliverability'],
    phrasings: ['is this address real'],
    has: { email: ['email', 'email address'] },
    gets: { status: ['valid', 'deliverable'] },
  },
};
const findDoc: CapabilityDoc = {
  capability: 'people.email.find',
  description: 'A work email from a name and domain, or a LinkedIn profile.',
  identity: [['linkedin_url']],
  output: ['email'],
  vocabulary: {
    terms: ['email finder', 'work email'],
    phrasings: ['email from linkedin profile'],
    has: { linkedin_url: ['linkedin url', 'linkedin profile'] },
    gets: { email: ['email', 'work email'] },
  },
};
const phoneDoc: CapabilityDoc = {
  capability: 'people.phone.find',
  description: 'A direct phone number.',
  identity: [['linkedin_url'], ['email']],
  output: ['phone'],
  vocabulary: {
    terms: ['direct dial', 'mobile number'],
    phrasings: ['phone number from an email'],
    has: { linkedin_url: ['linkedin url', 'linkedin profile'], email: ['email'] },
    gets: { phone: ['phone', 'mobile'] },
  },
};
const vocabularyRows = [
  row('svc.people.email.verify', 'people.email.verify (routed)', 0.004, { provider: 'svc', provider_display: 'svc (routed)', kind: 'routed' }),
  row('zerobounce.people.email.verify', 'Validate an address', 0.008, { provider_display: 'ZeroBounce' }),
  row('kickbox.people.email.verify', 'Verify', 0.001, { provider_display: 'Kickbox' }),
  row('svc.people.email.find', 'people.email.find (routed)', 0.02, {
    provider: 'svc',
    provider_display: 'svc (routed)',
    kind: 'routed',
    capability: 'people.email.find',
    summary: 'Finds a work email.',
  }),
  row('hunter.people.email.find', 'Email Finder', 0.02, { provider_display: 'Hunter.io', capability: 'people.email.find', summary: 'Finds a work email.' }),
  row('lusha.people.phone.find', 'Person phone', 0.05, { provider_display: 'Lusha', capability: 'people.phone.find', summary: 'Finds a phone.' }),
];

describe('catalog search ranking', () => {
  it('puts rows matching more of the query words first', async () => {
    const e = await engine([
      row('a.one', 'Email verifier', 0.01),
      row('b.two', 'Phone lookup', 0.001, { capability: 'people.phone.find', summary: 'Finds a phone.' }),
      row('c.three', 'Email finder', 0.001, { capability: 'people.email.find', summary: 'Finds an address.' }),
    ]);
    const { hits } = e.search('email verify', 10, () => false);
    expect(hits[0].row.endpoint_id).toBe('a.one');
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(hits.map((h) => h.row.endpoint_id)).not.toContain('b.two');
  });

  it('breaks ties: measured before unmeasured, then cheaper first, then id', async () => {
    const e = await engine([
      row('d.cheap', 'Verify email', 0.001),
      row('e.dear', 'Verify email', 0.02),
      row('f.measured', 'Verify email', 0.05),
      row('g.free', 'Verify email', 0),
      row('h.unpriced', 'Verify email', null),
      row('i.cheap', 'Verify email', 0.001),
    ]);
    const { hits } = e.search('verify email', 10, (id) => id === 'f.measured');
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    expect(hits.map((h) => h.row.endpoint_id)).toEqual(['f.measured', 'g.free', 'd.cheap', 'i.cheap', 'e.dear', 'h.unpriced']);
  });

  it('matches word prefixes, answers nothing for no words, and counts all matches in total', async () => {
    const e = await engine([row('a.one', 'Email verifier', 0.01), row('b.two', 'Email validator', 0.02, { capability: 'people.email.check' })]);
    expect(e.search('verif', 10, () => false).hits.map((h) => h.row.endpoint_id)).toEqual(['a.one']);
    expect(e.search('  ', 10, () => false)).toEqual({ hits: [], total: 0 });
    const limited = e.search('email', 1, () => false);
    expect(limited.hits).toHaveLength(1);
    expect(limited.total).toBe(2);
  });

  it("ranks by a capability's vocabulary, with its routed entry first when the query names the job", async () => {
    const e = await engine(vocabularyRows, [verifyDoc, findDoc, phoneDoc]);
    const ids = (q: string) => e.search(q, 10, () => false).hits.map((h) => h.row.endpoint_id);
    expect(ids('will this address bounce')[0]).toBe('svc.people.email.verify');
    expect(
      ids('will this address bounce')
        .slice(0, 3)
        .every((id) => id.includes('email.verify')),
    ).toBe(true);
    // the routed entry first even though a child is cheaper
    expect(ids('check deliverability')[0]).toBe('svc.people.email.verify');
    // a provider named by a word no job uses ranks its own row first
    expect(ids('kickbox deliverability')[0]).toBe('kickbox.people.email.verify');
  });

  it("weighs what the caller has against a capability's has words, and what they want against its job", async () => {
    const e = await engine(vocabularyRows, [verifyDoc, findDoc, phoneDoc]);
    const first = (q: string) => e.search(q, 10, () => false).hits[0].row.capability;
    expect(first('email for a linkedin profile')).toBe('people.email.find');
    expect(first('mobile number from an email')).toBe('people.phone.find');
    expect(first('is jane@acme.com deliverable')).toBe('people.email.verify');
  });

  it("stems, folds case and e-mail, and corrects a misspelled word to the catalog's nearest", async () => {
    const e = await engine(vocabularyRows, [verifyDoc, findDoc, phoneDoc]);
    const first = (q: string) => e.search(q, 10, () => false).hits[0]?.row.capability;
    expect(first('E-Mail BOUNCES?')).toBe('people.email.verify');
    expect(first('emial finders')).toBe('people.email.find');
    expect(e.read('verfy').terms[0].term).toBe('verify');
  });

  it("answers whole rows with scores of zero or more when a candidate matches only a word's start", async () => {
    const e = await engine(
      [
        ...vocabularyRows,
        row('kickbox.account.credits', 'Balance', 0, { provider_display: 'Kickbox', capability: 'account.credits', kind: 'utility', summary: 'What is left.' }),
      ],
      [verifyDoc, findDoc, phoneDoc],
    );
    const { hits } = e.search('cred deliverability', 20, () => false);
    expect(hits.map((h) => h.row.endpoint_id)).toContain('kickbox.account.credits');
    expect(hits.every((h) => h.row && h.score >= 0)).toBe(true);
  });
});

const similarDoc: CapabilityDoc = {
  capability: 'companies.similar',
  description: 'Companies that look like a given company.',
  identity: [['domain']],
  output: ['companies'],
  vocabulary: {
    terms: ['lookalike', 'companies like'],
    phrasings: [],
    has: { domain: ['domain', 'company'] },
    gets: { companies: ['similar', 'companies like'] },
  },
};
const videoDoc: CapabilityDoc = {
  capability: 'youtube.video.detail',
  description: "A video's title, views and likes.",
  identity: [['video']],
  output: ['detail'],
  vocabulary: { terms: ['video stats'], phrasings: [], has: { video: ['video'] }, gets: { detail: ['views', 'likes'] } },
};

describe('words search reads apart or together', () => {
  const stem = (w: string) => searchEncoder.encode(w)[0];

  it("keeps 'like' apart from 'likes', which still meets 'liked' and 'likers'; so for 'news', 'seed', 'add', 'employer'", () => {
    expect(stem('like')).not.toBe(stem('likes'));
    expect(new Set(['likes', 'liked', 'likers', 'liking'].map(stem)).size).toBe(1);
    expect(stem('news')).not.toBe(stem('new'));
    expect(stem('seeds')).toBe(stem('seed'));
    expect(stem('seed')).not.toBe(stem('see'));
    expect(stem('added')).toBe(stem('add'));
    expect(stem('add')).not.toBe(stem('ads'));
    expect(stem('employer')).not.toBe(stem('employees'));
    expect(stem('employees')).toBe(stem('employee'));
    // as written anywhere in a sentence, in any case
    expect(searchEncoder.encode('Companies LIKE stripe')).toContain(stem('like'));
  });

  it("'companies like stripe' matches no vocabulary that counts likes", async () => {
    const rows = [
      row('svc.companies.similar', 'companies.similar (routed)', 0.01, { capability: 'companies.similar', kind: 'routed', summary: 'Lookalikes.' }),
      row('yt.youtube.video.detail', 'Video detail', 0.01, { capability: 'youtube.video.detail', summary: 'A video.' }),
    ];
    const e = await engine(rows, [similarDoc, videoDoc]);
    expect(e.search('companies like stripe', 10, () => false).hits.map((h) => h.row.capability)).toEqual(['companies.similar']);
    expect(e.search('likes of a video', 10, () => false).hits[0].row.capability).toBe('youtube.video.detail');
  });
});

describe('reading a query', () => {
  it("turns back to what is wanted at which, what and where: 'I have an email, which company…'", async () => {
    const e = await engine(vocabularyRows, [verifyDoc, findDoc, phoneDoc]);
    const had = (q: string) => Object.fromEntries(e.read(q).terms.map((t) => [t.term, t.had]));
    expect(had('I have an email, which company is it')).toMatchObject({ email: true, company: false });
    expect(had('I know their email, where do they work')).toMatchObject({ email: true, work: false });
  });

  it("marks a name the job says is a company's: after a cue, or with a suffix; a name alone stays a name", async () => {
    const e = await engine(vocabularyRows, [verifyDoc, findDoc, phoneDoc]);
    const cues = { suffixes: new Set(['inc', 'corp', 'llc']), before: new Set(['at', 'from']) };
    const marks = (q: string) => e.read(q, cues).sequence.map((t) => `${t.term}${t.name ? '^' : ''}${t.company ? '#' : ''}`);
    expect(marks('find the email of Jane Doe at Acme Robotics')).toEqual(['find', 'email', 'jan^', 'do^', 'acm^#', 'robotic^#']);
    expect(marks('email of Acme Corp')).toEqual(['email', 'acm^#', 'corp^#']);
    expect(marks('emails at Blue Origin Inc')).toEqual(['email', 'blu^#', 'origin^#', 'inc^#']);
    // a suffix in capitals is no capitalised word, yet ends the name
    expect(marks('Blue Origin LLC emails')).toEqual(['blu^#', 'origin^#', 'lc', 'email']);
    expect(marks('enrich Blue Origin')).toEqual(['enrich', 'blu^', 'origin^']);
    // search itself reads no names
    expect(e.read('people at Acme Robotics').sequence.some((t) => t.name || t.company)).toBe(false);
  });
});

describe('rows a caller joins to a search', () => {
  it("gives back the joined capability's best rows after the limit, uncounted in total", async () => {
    const e = await engine(vocabularyRows, [verifyDoc, findDoc, phoneDoc]);
    const plain = e.search('will this address bounce', 1, () => false);
    const joined = e.search('will this address bounce', 1, () => false, new Set(['people.phone.find']));
    expect(joined.hits[0]).toEqual(plain.hits[0]);
    expect(joined.hits.slice(1).map((h) => [h.row.endpoint_id, h.joined])).toEqual([['lusha.people.phone.find', true]]);
    expect(joined.total).toBe(plain.total);
  });
});
